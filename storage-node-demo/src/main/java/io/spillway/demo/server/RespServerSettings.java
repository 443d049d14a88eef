package io.spillway.demo.server;

import io.spillway.admission.Tier;
import io.spillway.demo.resp.RespLimits;
import java.time.Duration;

/**
 * Settings of a node's RESP listener.
 *
 * @param bindHost address to bind, 127.0.0.1 by default
 * @param port TCP port, 0 for an ephemeral one
 * @param limits decoder size limits
 * @param maxConnections open connections accepted at once
 * @param idleTimeout a connection with no traffic and no pending request for this long is closed
 * @param frameTimeout a request that has begun and is still incomplete after this long is answered {@code -ERR} and
 *     its connection closed (slow loris, see {@link FrameDeadline})
 * @param maxPipelined requests of one connection in flight at once; beyond it the connection stops being read
 * @param defaultTier tier of a connection that did not send {@code SPILLWAY.TIER}
 */
public record RespServerSettings(String bindHost, int port, RespLimits limits, int maxConnections,
    Duration idleTimeout, Duration frameTimeout, int maxPipelined, Tier defaultTier) {

  /** Validates the fields. */
  public RespServerSettings {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("resp port must be in [0, 65535], was " + port);
    }
    if (maxConnections < 1) {
      throw new IllegalArgumentException("maxConnections must be >= 1, was " + maxConnections);
    }
    if (idleTimeout.toMillis() < 1) {
      throw new IllegalArgumentException("idleTimeout must be >= 1 ms, was " + idleTimeout.toMillis() + " ms");
    }
    if (frameTimeout.toMillis() < 1) {
      throw new IllegalArgumentException("frameTimeout must be >= 1 ms, was " + frameTimeout.toMillis() + " ms");
    }
    if (maxPipelined < 1) {
      throw new IllegalArgumentException("maxPipelined must be >= 1, was " + maxPipelined);
    }
  }
}
