package io.spillway.demo;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Turns down the libraries that log through {@code java.util.logging} rather than SLF4J (Ratis's shaded gRPC and
 * Netty). SLF4J loggers are configured in {@code simplelogger.properties}.
 */
final class QuietLogging {
  /** Strong references: JUL holds loggers weakly, and a collected logger forgets its level. */
  private static final Logger[] QUIETED = {
      Logger.getLogger("org.apache.ratis.thirdparty.io.grpc"),
      Logger.getLogger("org.apache.ratis.thirdparty.io.netty"),
  };

  private QuietLogging() {
  }

  static void apply() {
    for (Logger l : QUIETED) {
      l.setLevel(Level.WARNING);
    }
  }
}
