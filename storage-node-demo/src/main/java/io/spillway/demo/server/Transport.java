package io.spillway.demo.server;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.Locale;

/**
 * The event-loop transport of the RESP listener and of the load generator's connections: Netty's native epoll
 * transport on Linux where its library loads (the jar carries it for x86-64), Java NIO elsewhere. Epoll spares a
 * request's round trip the selector's per-wakeup garbage and some of its system calls, which counts on a host whose
 * cores are the bound (docs/storage-node-demo.md). The system property {@value #PROPERTY} ({@code auto}, the default;
 * {@code nio}; {@code epoll}) chooses one; asking for epoll where it cannot load is an error that says why.
 */
public enum Transport {
  EPOLL,
  NIO;

  /** The system property that chooses the transport. */
  public static final String PROPERTY = "spillway.transport";

  /** The transport {@value #PROPERTY} asks for, epoll where it is available when it asks for none. */
  public static Transport chosen() {
    return choose(System.getProperty(PROPERTY, "auto"), Epoll.isAvailable());
  }

  /** The transport a property value asks for, given whether epoll is available here. */
  static Transport choose(String value, boolean epollAvailable) {
    switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "auto":
        return epollAvailable ? EPOLL : NIO;
      case "nio":
        return NIO;
      case "epoll":
        if (!epollAvailable) {
          throw new IllegalStateException(PROPERTY + "=epoll, but Netty's epoll transport is not available here: "
              + Epoll.unavailabilityCause());
        }
        return EPOLL;
      default:
        throw new IllegalArgumentException(PROPERTY + " must be auto, nio or epoll, was '" + value + "'");
    }
  }

  /** The event loops' I/O handler. */
  public IoHandlerFactory ioHandlerFactory() {
    return this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
  }

  /** The transport's name as the property spells it: {@code epoll}, {@code nio}. */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The listening socket's channel class. */
  public Class<? extends ServerChannel> serverChannel() {
    return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  /** A client connection's channel class. */
  public Class<? extends SocketChannel> socketChannel() {
    return this == EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
  }
}
