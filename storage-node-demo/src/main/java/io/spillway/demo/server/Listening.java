package io.spillway.demo.server;

import io.netty.bootstrap.AbstractBootstrap;
import io.netty.channel.Channel;
import java.io.IOException;

/** Binds a server's listening socket; a failure names the address and what was to listen there. */
public final class Listening {

  private Listening() {
  }

  /**
   * Binds {@code bootstrap} to {@code host:port} and waits for it: the channel, or an {@link IOException} such as
   * "cannot listen on 127.0.0.1:6379 for RESP: bind(..) failed with error(-98): Address already in use" (Netty's own
   * message names neither the address nor the server).
   */
  public static Channel bind(AbstractBootstrap<?, ?> bootstrap, String host, int port, String what)
      throws IOException, InterruptedException {
    try {
      return bootstrap.bind(host, port).sync().channel();
    } catch (InterruptedException | RuntimeException e) {
      throw e;
    } catch (Exception e) { // sync() rethrows the bind's checked cause (a BindException) without declaring it
      throw refused(host, port, what, e);
    }
  }

  /** The failure to listen on {@code host:port} for {@code what}, naming both and the cause's own message. */
  public static IOException refused(String host, int port, String what, Exception cause) {
    return new IOException("cannot listen on " + host + ":" + port + " for " + what + ": " + cause.getMessage(), cause);
  }
}
