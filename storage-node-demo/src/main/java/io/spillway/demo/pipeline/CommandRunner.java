package io.spillway.demo.pipeline;

import io.spillway.demo.command.DataCommand;
import io.spillway.demo.resp.RespReply;
import java.util.concurrent.CompletableFuture;

/** Runs a data command against the partitions ({@link CommandExecutor}); what the request pipeline executes with. */
@FunctionalInterface
public interface CommandRunner {
  /**
   * Runs the command on the calling storage thread as far as this node's part goes. The future holds its RESP reply
   * or fails with the storage error; it is still incomplete on return when the rest waits on another node (a read
   * proxied to its partition's leader, a write being replicated).
   */
  CompletableFuture<RespReply> execute(DataCommand command);
}
