package io.spillway.demo.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.spillway.demo.command.DataCommandParser;
import io.spillway.demo.pipeline.RequestPipeline;
import io.spillway.demo.resp.RespCodec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A node's RESP listener, on the {@link Transport} the host allows: connection cap → idle timeout → request
 * deadline → Netty's RESP codec with the node's bounds ({@link RespCodec}) → per-connection dispatcher
 * ({@link RespConnectionHandler}) feeding the {@link RequestPipeline}. The event loops' lag behind their schedule is
 * sampled ({@link EventLoopLag}).
 */
public final class RespServer implements AutoCloseable {
  private final RespServerSettings settings;
  private final RequestPipeline pipeline;
  private final DataCommandParser parser;
  private final SessionCommands sessionCommands;
  private final ConnectionLimiter limiter;
  private final AtomicLong connectionIds = new AtomicLong();
  private final EventLoopLag lag = new EventLoopLag(System::nanoTime);
  private EventLoopGroup boss;
  private EventLoopGroup workers;
  private Channel channel;

  /**
   * @param node INFO's body and the partitions the node leads
   * @param version version reported to clients
   */
  public RespServer(RespServerSettings settings, RequestPipeline pipeline, DataCommandParser parser,
      NodeView node, String version) {
    this.settings = settings;
    this.pipeline = pipeline;
    this.parser = parser;
    this.sessionCommands = new SessionCommands(node, version);
    this.limiter = new ConnectionLimiter(settings.maxConnections());
  }

  /** Binds and starts serving on {@code transport}; returns once the port is bound. */
  public synchronized void start(String threadPrefix, int workerThreads, Transport transport)
      throws IOException, InterruptedException {
    boss = new MultiThreadIoEventLoopGroup(1, new NamedThreadFactory(threadPrefix + "-resp-accept"),
        transport.ioHandlerFactory());
    workers = new MultiThreadIoEventLoopGroup(workerThreads, new NamedThreadFactory(threadPrefix + "-resp"),
        transport.ioHandlerFactory());
    lag.start(workers);
    final long idleMillis = settings.idleTimeout().toMillis();
    final ServerBootstrap bootstrap = new ServerBootstrap()
        .group(boss, workers)
        .channel(transport.serverChannel())
        .option(ChannelOption.SO_BACKLOG, 1024)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 << 10, 64 << 10))
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline()
                .addLast("limit", limiter)
                .addLast("idle", new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS))
                .addLast("frame-deadline", new FrameDeadline(settings.frameTimeout()));
            RespCodec.addTo(ch.pipeline(), settings.limits());
            ch.pipeline().addLast("dispatch", new RespConnectionHandler(pipeline, parser, sessionCommands, settings,
                    connectionIds.incrementAndGet(), ch.remoteAddress()));
          }
        });
    channel = Listening.bind(bootstrap, settings.bindHost(), settings.port(), "RESP (" + threadPrefix + ")");
  }

  /** The bound address (the real port when configured with 0). */
  public InetSocketAddress address() {
    return (InetSocketAddress) channel.localAddress();
  }

  /** How far behind their schedule the event loops that serve the connections run. */
  public EventLoopLag eventLoopLag() {
    return lag;
  }

  /** Open client connections. */
  public int connections() {
    return limiter.open();
  }

  /** Stops accepting, closes every connection and the event loops (waiting up to a few seconds). */
  @Override
  public synchronized void close() {
    lag.stop();
    if (channel != null) {
      channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
      channel = null;
    }
    if (boss != null) {
      boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
      workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
      boss = null;
      workers = null;
    }
  }
}
