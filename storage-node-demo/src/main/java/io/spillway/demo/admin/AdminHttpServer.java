package io.spillway.demo.admin;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.spillway.demo.StorageNode;
import io.spillway.demo.server.Listening;
import io.spillway.demo.server.NamedThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP endpoint of a process (one per JVM: the whole in-process cluster, or the single node).
 * {@code GET /metrics} (Prometheus text), {@code GET /status} and {@code GET /config} (JSON); with chaos enabled,
 * {@code POST /chaos/...} (see {@link ChaosEndpoint}). Binds to loopback unless told otherwise.
 */
public final class AdminHttpServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AdminHttpServer.class);

  private final Supplier<List<StorageNode>> nodes;
  private final PrometheusMeterRegistry registry;
  private final Supplier<Object> config;
  private final Supplier<String> engineYaml;
  private final ChaosEndpoint chaos;
  private EventLoopGroup group;
  private Channel channel;

  /**
   * The registry a process's {@code /metrics} serves, joined to Micrometer's global registry, where Ratis registers
   * its meters ({@code raft.MicrometerRatisMetrics}): one per process, created before its nodes start.
   */
  public static PrometheusMeterRegistry newRegistry() {
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Metrics.addRegistry(registry);
    return registry;
  }

  /**
   * @param nodes the nodes running in this process
   * @param registry the registry to scrape
   * @param config the running configuration, rendered by {@code /config}
   * @param chaos whether {@code /chaos/...} is served
   */
  public AdminHttpServer(Supplier<List<StorageNode>> nodes, PrometheusMeterRegistry registry, Supplier<Object> config,
      boolean chaos) {
    this(nodes, registry, config, () -> null, chaos);
  }

  /**
   * @param nodes the nodes running in this process
   * @param registry the registry to scrape
   * @param config the running configuration, rendered as JSON by {@code /config}
   * @param engineYaml the admission engine's running config as YAML, served by {@code /config?format=yaml}
   * @param chaos whether {@code /chaos/...} is served
   */
  public AdminHttpServer(Supplier<List<StorageNode>> nodes, PrometheusMeterRegistry registry, Supplier<Object> config,
      Supplier<String> engineYaml, boolean chaos) {
    this.nodes = nodes;
    this.registry = registry;
    this.config = config;
    this.engineYaml = engineYaml;
    this.chaos = chaos ? new ChaosEndpoint(nodes) : null;
  }

  /** Binds and serves. */
  public synchronized void start(String host, int port) throws IOException, InterruptedException {
    group = new MultiThreadIoEventLoopGroup(1, new NamedThreadFactory("admin-http"), NioIoHandler.newFactory());
    channel = Listening.bind(new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline().addLast(new ReadTimeoutHandler(30, TimeUnit.SECONDS), new HttpServerCodec(4096, 8192, 8192),
                new HttpObjectAggregator(64 << 10), new Handler());
          }
        }), host, port, "the admin HTTP endpoints");
    LOG.info("admin HTTP on http://{}/ (chaos {})", address().getHostString() + ":" + address().getPort(),
        chaos != null ? "enabled" : "disabled");
  }

  /** The bound address. */
  public InetSocketAddress address() {
    return (InetSocketAddress) channel.localAddress();
  }

  @Override
  public synchronized void close() {
    if (channel != null) {
      channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
      channel = null;
    }
    if (group != null) {
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
      group = null;
    }
  }

  private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
      final QueryStringDecoder uri = new QueryStringDecoder(request.uri());
      final String path = uri.path();
      FullHttpResponse response;
      try {
        if (path.startsWith("/chaos/")) {
          response = chaos(request.method(), path.substring("/chaos/".length()), uri.parameters());
        } else if (!HttpMethod.GET.equals(request.method())) {
          response = text(HttpResponseStatus.METHOD_NOT_ALLOWED, "use GET\n");
        } else {
          switch (path) {
            case "/metrics" -> response = response(HttpResponseStatus.OK,
                "text/plain; version=0.0.4; charset=utf-8", registry.scrape());
            case "/status" -> response = json(StatusReport.build(nodes.get()));
            case "/config" -> response = config(uri.parameters().getOrDefault("format", List.of("json")).get(0));
            case "/" -> response = text(HttpResponseStatus.OK, "endpoints: /metrics /status /config[?format=yaml]"
                + (chaos != null ? " POST /chaos/{slow-apply,slow-flush,slow-rocksdb,pause,resume,reset}" : "")
                + "\n");
            default -> response = text(HttpResponseStatus.NOT_FOUND, "no such endpoint: " + path + "\n");
          }
        }
      } catch (RuntimeException e) {
        response = text(HttpResponseStatus.INTERNAL_SERVER_ERROR, e + "\n");
      }
      final boolean keepAlive = HttpUtil.isKeepAlive(request);
      HttpUtil.setKeepAlive(response, keepAlive);
      final var future = ctx.writeAndFlush(response);
      if (!keepAlive) {
        future.addListener(ChannelFutureListener.CLOSE);
      }
    }

    private FullHttpResponse config(String format) {
      if ("yaml".equals(format)) {
        final String yaml = engineYaml.get();
        return yaml == null ? text(HttpResponseStatus.NOT_FOUND, "no engine config\n")
            : response(HttpResponseStatus.OK, "application/yaml; charset=utf-8", yaml);
      }
      if (!"json".equals(format)) {
        return text(HttpResponseStatus.BAD_REQUEST, "format must be json or yaml, was '" + format + "'\n");
      }
      return json(config.get());
    }

    private FullHttpResponse chaos(HttpMethod method, String action, Map<String, List<String>> params) {
      if (chaos == null) {
        return text(HttpResponseStatus.NOT_FOUND, "fault injection is disabled; start with --chaos\n");
      }
      if (!HttpMethod.POST.equals(method)) {
        return text(HttpResponseStatus.METHOD_NOT_ALLOWED, "use POST\n");
      }
      try {
        return text(HttpResponseStatus.OK, chaos.apply(action, params) + "\n");
      } catch (IllegalArgumentException | IllegalStateException e) {
        return text(HttpResponseStatus.BAD_REQUEST, e.getMessage() + "\n");
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  private static FullHttpResponse json(Object body) {
    return response(HttpResponseStatus.OK, "application/json", Json.write(body) + "\n");
  }

  private static FullHttpResponse text(HttpResponseStatus status, String body) {
    return response(status, "text/plain; charset=utf-8", body);
  }

  private static FullHttpResponse response(HttpResponseStatus status, String contentType, String body) {
    final FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
        Unpooled.wrappedBuffer(body.getBytes(StandardCharsets.UTF_8)));
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes());
    return r;
  }
}
