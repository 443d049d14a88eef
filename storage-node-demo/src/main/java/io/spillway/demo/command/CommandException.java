package io.spillway.demo.command;

import io.spillway.demo.resp.RespReply;

/** A command the node refuses before running it (unknown, wrong arity, bad argument); carries the RESP error. */
public final class CommandException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Creates an exception whose reply is {@code -ERR <message>}. */
  public CommandException(String message) {
    super(message, null, false, false);
  }

  /** The RESP error to send. */
  public RespReply reply() {
    return RespReply.err(getMessage());
  }
}
