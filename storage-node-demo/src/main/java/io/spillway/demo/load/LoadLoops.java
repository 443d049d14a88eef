package io.spillway.demo.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.redis.RedisArrayAggregator;
import io.netty.handler.codec.redis.RedisBulkStringAggregator;
import io.netty.handler.codec.redis.RedisDecoder;
import io.netty.handler.codec.redis.RedisEncoder;
import io.netty.handler.codec.redis.RedisMessage;
import io.spillway.demo.server.NamedThreadFactory;
import io.spillway.demo.server.Transport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The event loops every connection of a load shares, with Netty's RESP codec on each connection. A load of 636
 * connections (the demo at 8,580 req/s) used to run a reader and a writer thread per connection, 1,272 threads whose
 * wake-ups took a fifth of the demo's CPU on a 2-core host; on a few event loops the same schedule costs a selector
 * wake-up per batch of due sends and of ready replies (docs/storage-node-demo.md#the-built-in-load-generator).
 */
final class LoadLoops implements AutoCloseable {
  /** How long a connection attempt may take. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  /** How long the node may take to answer a connection's setup commands. */
  static final Duration SETUP_TIMEOUT = Duration.ofSeconds(5);
  private final EventLoopGroup group;
  private final Bootstrap bootstrap;

  /** Event loops on {@code threads} threads, over the transport {@link Transport#chosen()} picks. */
  LoadLoops(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, was " + threads);
    }
    final Transport transport = Transport.chosen();
    group = new MultiThreadIoEventLoopGroup(threads, new NamedThreadFactory("load-loop"),
        transport.ioHandlerFactory());
    bootstrap = new Bootstrap().group(group).channel(transport.socketChannel())
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) CONNECT_TIMEOUT.toMillis());
  }

  /** As many loops as the host has cores, at most two: a load of thousands of requests a second needs no more. */
  static LoadLoops forThisHost() {
    return new LoadLoops(Math.min(2, Runtime.getRuntime().availableProcessors()));
  }

  /**
   * A connection to {@code target} whose decoded replies go to {@code replies}; a failure names the target
   * ("cannot connect to 127.0.0.1:6379: Connection refused").
   */
  Channel connect(InetSocketAddress target, ChannelHandler replies) throws IOException {
    final ChannelFuture connected = bootstrap.clone().handler(new ChannelInitializer<SocketChannel>() {
      @Override
      protected void initChannel(SocketChannel ch) {
        ch.pipeline()
            .addLast("resp-decoder", new RedisDecoder())
            .addLast("resp-bulk-aggregator", new RedisBulkStringAggregator())
            .addLast("resp-array-aggregator", new RedisArrayAggregator())
            .addLast("resp-encoder", new RedisEncoder())
            .addLast("replies", replies);
      }
    }).connect(target);
    final String where = target.getHostString() + ":" + target.getPort();
    if (!connected.awaitUninterruptibly(CONNECT_TIMEOUT.toMillis() + 1_000, TimeUnit.MILLISECONDS)) {
      connected.cancel(false);
      throw new IOException("cannot connect to " + where + ": no answer within " + CONNECT_TIMEOUT.toSeconds() + " s");
    }
    if (!connected.isSuccess()) {
      throw new IOException("cannot connect to " + where + ": " + why(connected.cause()), connected.cause());
    }
    return connected.channel();
  }

  /**
   * Sends a connection's setup commands and waits up to {@link #SETUP_TIMEOUT} for their answers, each of which must
   * be a simple string ({@code +OK}); call before the connection sends anything else. A failure names {@code who}
   * ("setup of checkout-api failed: -ERR unknown tier 'x'"); the caller closes the connection then.
   */
  static void setUp(Channel channel, String who, List<RedisMessage> commands) throws IOException {
    final SetupReplies setup = new SetupReplies(commands.size());
    channel.pipeline().addBefore("replies", "setup", setup);
    commands.forEach(channel::write);
    channel.flush();
    final List<String> lines;
    try {
      lines = setup.answers().get(SETUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IOException("setup of " + who + " failed: " + (e instanceof TimeoutException
          ? "no answer within " + SETUP_TIMEOUT.toSeconds() + " s" : "the connection closed"), e);
    }
    SetupReplies.requireAccepted(who, lines);
  }

  /**
   * A connect failure in the operating system's words ("Connection refused"), without what the transport adds: the
   * native call and its errno (epoll: "finishConnect(..) failed with error(-111): ") or the address again (NIO:
   * ": localhost/127.0.0.1:6379").
   */
  static String why(Throwable cause) {
    return String.valueOf(cause.getMessage()).replaceFirst("^.*failed with error\\(-?\\d+\\): ", "")
        .replaceFirst(": \\S*/\\S+$", "");
  }

  /** Stops the loops, at most a few seconds after the connections have closed. */
  @Override
  public void close() {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
