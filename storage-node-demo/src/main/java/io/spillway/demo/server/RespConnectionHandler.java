package io.spillway.demo.server;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.OpType;
import io.spillway.admission.Tier;
import io.spillway.demo.admission.NodeAdmission;
import io.spillway.demo.command.CommandException;
import io.spillway.demo.command.DataCommand;
import io.spillway.demo.command.DataCommandParser;
import io.spillway.demo.pipeline.RequestPipeline;
import io.spillway.demo.resp.RespCommand;
import io.spillway.demo.resp.RespProtocolError;
import io.spillway.demo.resp.RespReply;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-connection dispatcher, running on the connection's event loop.
 *
 * <p>Session commands are answered at once; data commands go to the {@link RequestPipeline}, which never blocks.
 * RESP clients pipeline requests and expect replies in request order, while data commands finish in any order:
 * each request takes a slot in a FIFO and replies leave only from its head.
 *
 * <p>Pipelined data commands keep their program order where it is observable, as Redis's one-at-a-time execution
 * does: a write starts only when every earlier command of the connection has finished, and a read or scan only when
 * every earlier write has; reads between writes run concurrently. A command's deadline runs from its arrival, so
 * one whose caller gave up while it waited in that order is answered with the timeout error at once instead of
 * being served for nobody (and holding back the commands behind it). A command's tier and client name are taken when
 * it arrives, so a {@code SPILLWAY.TIER} between pipelined commands applies from that point on. The client's
 * admission handle is looked up once per {@code CLIENT SETNAME} and cached on the session; a connection without a
 * name is a client of its own ({@link NodeAdmission#unnamedClientId}), forgotten when the connection closes.
 *
 * <p>At most {@code maxPipelined} data commands of a connection are waiting or running; beyond that (or while the
 * socket's outbound buffer is above its high-water mark) the connection stops being read, which pushes back on the
 * client through TCP instead of buffering.
 */
final class RespConnectionHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(RespConnectionHandler.class);

  private static final class Slot {
    RespReply reply;
    boolean closeAfter;
  }

  /** A parsed data command waiting for the commands it must follow; its deadline runs from its arrival. */
  private record Pending(Slot slot, DataCommand command, Tier tier, ClientHandle client, long arrivalNanos,
      long timeoutNanos) {
  }

  private final RequestPipeline pipeline;
  private final DataCommandParser parser;
  private final SessionCommands sessionCommands;
  private final int maxPipelined;
  private final Session session;
  private final ArrayDeque<Slot> slots = new ArrayDeque<>();
  private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
  /** The replies of the started, unfinished commands: cancelled if the connection closes. */
  private final List<CompletableFuture<RespReply>> started = new ArrayList<>();
  private int runningReads;
  private int runningWrites;
  private boolean closing;

  RespConnectionHandler(RequestPipeline pipeline, DataCommandParser parser, SessionCommands sessionCommands,
      RespServerSettings settings, long connectionId, SocketAddress remote) {
    this.pipeline = pipeline;
    this.parser = parser;
    this.sessionCommands = sessionCommands;
    this.maxPipelined = settings.maxPipelined();
    this.session = new Session(connectionId, settings.defaultTier(),
        NodeAdmission.unnamedClientId(remote, connectionId));
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (closing) {
      return;
    }
    final Slot slot = new Slot();
    slots.add(slot);
    if (msg instanceof RespProtocolError error) {
      slot.reply = RespReply.err("Protocol error: " + error.message());
      slot.closeAfter = true;
      closing = true;
    } else if (msg instanceof RespCommand command) {
      dispatch(ctx, command, slot);
    } else {
      slot.reply = RespReply.err("unexpected message " + msg.getClass().getSimpleName());
    }
    drain(ctx);
  }

  private void dispatch(ChannelHandlerContext ctx, RespCommand command, Slot slot) {
    final String name = command.name();
    if (DataCommandParser.isDataCommand(name)) {
      try {
        final DataCommand parsed = parser.parse(command);
        if (session.client == null) {
          session.client = pipeline.client(session.clientId()); // registered once per name, cached here
        }
        waiting.add(new Pending(slot, parsed, session.tier, session.client, System.nanoTime(),
            session.timeoutNanos));
        startReady(ctx);
        updateAutoRead(ctx);
      } catch (CommandException e) {
        slot.reply = e.reply();
      }
    } else if (SessionCommands.isSessionCommand(name)) {
      slot.reply = sessionCommands.execute(command, session);
      slot.closeAfter = session.closeAfterReply;
    } else {
      slot.reply = RespReply.err(unknownCommand(command));
    }
  }

  /** Starts waiting commands, in order, as long as the head may run next to what is running. */
  private void startReady(ChannelHandlerContext ctx) {
    while (!waiting.isEmpty()) {
      final Pending next = waiting.peek();
      final boolean write = next.command().opType() == OpType.WRITE;
      if (runningWrites > 0 || (write && runningReads > 0)) {
        return;
      }
      waiting.poll();
      if (write) {
        runningWrites++;
      } else {
        runningReads++;
      }
      final CompletableFuture<RespReply> reply = pipeline.submit(next.tier(), next.client(), next.command(),
          next.arrivalNanos(), next.timeoutNanos());
      if (reply.isDone()) {
        finished(next, write, reply.join());
      } else {
        started.add(reply);
        reply.whenComplete((r, e) -> ctx.executor().execute(() -> {
          started.remove(reply);
          finished(next, write, e == null ? r : RespReply.err("internal error: " + e.getMessage()));
          startReady(ctx);
          drain(ctx);
          updateAutoRead(ctx);
        }));
      }
    }
  }

  private void finished(Pending pending, boolean write, RespReply reply) {
    if (write) {
      runningWrites--;
    } else {
      runningReads--;
    }
    pending.slot().reply = reply;
  }

  private static String unknownCommand(RespCommand command) {
    final StringBuilder b = new StringBuilder("unknown command '")
        .append(abbreviate(command.argString(0))).append("', with args beginning with:");
    for (int i = 1; i < Math.min(command.size(), 4); i++) {
      b.append(" '").append(abbreviate(command.argString(i))).append('\'');
    }
    return b.toString();
  }

  private static String abbreviate(String s) {
    final String clean = s.replaceAll("[\\p{Cntrl}]", "?");
    return clean.length() > 32 ? clean.substring(0, 32) + "..." : clean;
  }

  /** Writes every reply at the head of the FIFO that is ready, then flushes once. */
  private void drain(ChannelHandlerContext ctx) {
    boolean wrote = false;
    while (!slots.isEmpty() && slots.peek().reply != null) {
      final Slot head = slots.poll();
      wrote = true;
      if (head.closeAfter) {
        ctx.writeAndFlush(head.reply).addListener(ChannelFutureListener.CLOSE);
        slots.clear();
        closing = true;
        ctx.channel().config().setAutoRead(false);
        return;
      }
      ctx.write(head.reply);
    }
    if (wrote) {
      ctx.flush();
    }
  }

  /** Data commands waiting or running: what {@code maxPipelined} bounds. */
  private int unfinished() {
    return waiting.size() + runningReads + runningWrites;
  }

  private void updateAutoRead(ChannelHandlerContext ctx) {
    if (!closing) {
      ctx.channel().config().setAutoRead(unfinished() < maxPipelined && ctx.channel().isWritable());
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    updateAutoRead(ctx);
    super.channelWritabilityChanged(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof IdleStateEvent) {
      if (slots.isEmpty()) {
        ctx.close();
      }
      return;
    }
    super.userEventTriggered(ctx, evt);
  }

  /**
   * The client is gone: its waiting commands never start, and its started ones are cancelled, so that one still
   * queued in the engine is dropped when dispatched instead of costing storage time for nobody (one already running
   * finishes and releases its permit as usual).
   */
  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    closing = true;
    waiting.clear();
    slots.clear();
    for (CompletableFuture<RespReply> reply : List.copyOf(started)) {
      reply.cancel(false); // its completion task runs later on this event loop and finds nothing left to do
    }
    pipeline.forget(session.unnamedClientId);
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("closing connection {} after {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
