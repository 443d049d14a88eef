package io.spillway.demo.resp;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** A RESP2 reply, written by Netty's {@code RedisEncoder} after {@link RespCodec} converts it. */
public sealed interface RespReply {

  /** {@code +OK}. */
  RespReply OK = new Simple("OK");
  /** {@code +PONG}. */
  RespReply PONG = new Simple("PONG");
  /** The null bulk string {@code $-1}. */
  RespReply NULL_BULK = new Bulk(null);
  /** The empty array {@code *0}. */
  RespReply EMPTY_ARRAY = new Array(List.of());

  /** A simple string ({@code +text}); text must not contain CR or LF. */
  record Simple(String text) implements RespReply {
  }

  /**
   * An error ({@code -text}); the first word is the error code, e.g. {@code ERR}, {@code BUSY}, {@code MOVED}.
   * CR and LF in the text are replaced by spaces when encoded.
   */
  record Error(String text) implements RespReply {
  }

  /** An integer ({@code :n}). */
  record Int(long value) implements RespReply {
  }

  /** A bulk string ({@code $len}); {@code null} bytes encode the null bulk string. */
  record Bulk(byte[] bytes) implements RespReply {
  }

  /** An array ({@code *n}) of replies. */
  record Array(List<RespReply> items) implements RespReply {
  }

  /** {@code -ERR <message>}. */
  static RespReply err(String message) {
    return new Error("ERR " + message);
  }

  /** A bulk string holding UTF-8 text. */
  static RespReply bulk(String text) {
    return new Bulk(text.getBytes(StandardCharsets.UTF_8));
  }
}
