package io.spillway.demo.admission;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.metrics.SpillwayMetrics;
import io.spillway.demo.lag.PartitionLag;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's admission engine and everything around it: the control loop on a single scheduled thread, a
 * {@link FollowerLagSignal} per partition, the client registry (one handle per client name) and the engine's
 * Micrometer meters tagged with the node.
 *
 * <p>Client identity: a connection that sent {@code CLIENT SETNAME} is the client of that name, shared by every
 * connection that sets it; one that never did is a client of its own, {@code conn-<address>:<port>}
 * ({@link #unnamedClientId}), forgotten when the connection closes ({@link #forget}; the registry reuses its slot
 * once its last request has finished, so connection churn does not grow it). Not one client per host: a load
 * generator or a connection pool opens many connections from one host, and pooling them made 50 connections of
 * {@code redis-benchmark} one client over its cap (twice the inflight limit) on an idle node. Not one client for
 * all unnamed connections either (the {@code default} client of earlier versions): ten connections from ten hosts
 * then shared one client's caps, so one busy host took the others' share. A caller that wants its connections
 * capped together names them with {@code CLIENT SETNAME}.
 */
public final class NodeAdmission implements AutoCloseable {
  /** Prefix of the client id of a connection that never sent {@code CLIENT SETNAME}: {@code conn-<host>:<port>}. */
  public static final String UNNAMED_PREFIX = "conn-";
  /** How often the engine's meters re-read the set of scopes and signals. */
  private static final long METRICS_REFRESH_SECONDS = 5;
  private static final Logger LOG = LoggerFactory.getLogger(NodeAdmission.class);

  private final String nodeId;
  private final AdmissionEngine engine;
  private final List<FollowerLagSignal> lagSignals = new ArrayList<>();
  private final ScheduledExecutorService control;
  private final List<ScheduledFuture<?>> tasks = new ArrayList<>();
  private SpillwayMetrics metrics;

  /**
   * @param nodeId the node, for thread names and meter tags
   * @param config the engine configuration (embedded default overlaid with the user's file)
   * @param partitions partitions of the cluster; each gets a lag signal on its writes
   * @param lagSource the latest leader sample of a partition's follower lag, or {@code null}
   * @param lagTargets targets of the lag signals
   * @param maxSampleAge lag samples older than this are ignored
   */
  public NodeAdmission(String nodeId, EngineConfig config, int partitions, IntFunction<PartitionLag> lagSource,
      LagTargets lagTargets, Duration maxSampleAge) {
    this.nodeId = nodeId;
    this.engine = AdmissionEngine.create(config);
    for (int p = 0; p < partitions; p++) {
      final FollowerLagSignal signal = new FollowerLagSignal(p, lagSource, lagTargets, maxSampleAge);
      lagSignals.add(signal);
      engine.addSignal(signal);
    }
    this.control = Executors.newSingleThreadScheduledExecutor(r -> {
      final Thread t = new Thread(r, nodeId + "-admission-control");
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts the control loop (one tick per {@code pid.tick}) and the periodic refresh of the meters. */
  public synchronized void start() {
    tasks.add(engine.start(control));
    tasks.add(control.scheduleWithFixedDelay(this::refreshMetrics, METRICS_REFRESH_SECONDS, METRICS_REFRESH_SECONDS,
        TimeUnit.SECONDS));
  }

  /**
   * Swaps in a new engine configuration (hot reload). A changed tick period takes effect at once: the control
   * loop is rescheduled.
   *
   * @throws IllegalArgumentException if the engine refuses the config (e.g. {@code limit.max} beyond its table)
   */
  public synchronized void reconfigure(EngineConfig next) {
    final Duration previousTick = engine.config().pidTick();
    engine.reconfigure(next);
    if (!next.pidTick().equals(previousTick) && !tasks.isEmpty()) {
      tasks.get(0).cancel(false);
      tasks.set(0, engine.start(control));
    }
  }

  /** Binds the engine's meters ({@code spillway.*}) to a registry, tagged {@code node=<id>}. */
  public synchronized void bindMetrics(MeterRegistry registry) {
    metrics = new SpillwayMetrics(engine, 0, null, null, Tags.of("node", nodeId));
    metrics.bindTo(registry);
  }

  private synchronized void refreshMetrics() {
    try {
      if (metrics != null) {
        metrics.refresh();
      }
    } catch (RuntimeException e) {
      LOG.warn("{}: refreshing admission meters failed: {}", nodeId, e.toString());
    }
  }

  /** The engine. */
  public AdmissionEngine engine() {
    return engine;
  }

  /** The handle of a client id, registered on first use (connections cache it). */
  public ClientHandle client(String id) {
    return engine.clients().register(id);
  }

  /** Forgets a client that is gone (the unnamed client of a connection that closed); nothing if not registered. */
  public void forget(String id) {
    final ClientHandle handle = engine.clients().find(id);
    if (handle != null) {
      engine.clients().unregister(handle);
    }
  }

  /**
   * The client id of a connection without a name: {@code conn-}, the remote address and port
   * ({@code conn-127.0.0.1:54321}, {@code conn-0:0:0:0:0:0:0:1:6379}); {@code conn-#<connection>} if the address is
   * not known, so that two such connections are still two clients.
   */
  public static String unnamedClientId(SocketAddress remote, long connectionId) {
    if (remote instanceof InetSocketAddress inet) {
      final String host = inet.getAddress() != null ? inet.getAddress().getHostAddress() : inet.getHostString();
      return UNNAMED_PREFIX + host + ":" + inet.getPort();
    }
    return UNNAMED_PREFIX + "#" + connectionId;
  }

  /** The lag signals, one per partition. */
  public List<FollowerLagSignal> lagSignals() {
    return List.copyOf(lagSignals);
  }

  /** The current lag pressure of a partition ({@link FollowerLagSignal}), or -1 when unknown. */
  public double lagPressureOrNegative(int partition) {
    final double v = lagSignals.get(partition).value();
    return Double.isNaN(v) ? -1 : v;
  }

  /** Stops the control loop (waiting up to 5 s for a running tick). */
  @Override
  public synchronized void close() {
    tasks.forEach(t -> t.cancel(false));
    control.shutdownNow();
    try {
      if (!control.awaitTermination(5, TimeUnit.SECONDS)) {
        LOG.warn("{}: admission control thread did not stop within 5 s", nodeId);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
