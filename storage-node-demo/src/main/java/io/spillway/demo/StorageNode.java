package io.spillway.demo;

import io.micrometer.core.instrument.MeterRegistry;
import io.spillway.admission.EngineConfig;
import io.spillway.demo.admission.NodeAdmission;
import io.spillway.demo.chaos.ChaosControls;
import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.command.DataCommandParser;
import io.spillway.demo.lag.FollowerLagSampler;
import io.spillway.demo.lag.PartitionLag;
import io.spillway.demo.pipeline.CommandExecutor;
import io.spillway.demo.pipeline.PipelineMetrics;
import io.spillway.demo.pipeline.RequestPipeline;
import io.spillway.demo.pipeline.StorageExecutor;
import io.spillway.demo.raft.KvClient;
import io.spillway.demo.raft.PartitionGroups;
import io.spillway.demo.raft.RaftNode;
import io.spillway.demo.server.EventLoopLag;
import io.spillway.demo.server.NodeView;
import io.spillway.demo.server.RespServer;
import io.spillway.demo.server.Transport;
import io.spillway.demo.store.RocksDbNativeLibrary;
import io.spillway.demo.strategy.AdmissionStrategy;
import io.spillway.demo.strategy.Strategies;
import io.spillway.demo.strategy.StrategyKind;
import io.spillway.demo.strategy.StrategySettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One storage node: its Raft server (a division per partition, each with its RocksDB), the follower-lag sampler,
 * the admission engine ({@link NodeAdmission}), the request pipeline with its bounded storage executor, and the
 * RESP listener. The multi-process mode runs one per JVM; the in-process cluster runs three.
 */
public final class StorageNode implements AutoCloseable {
  /** Version reported to clients. */
  public static final String VERSION = "0.1.0";
  private static final Logger LOG = LoggerFactory.getLogger(StorageNode.class);

  private final NodeConfig config;
  private final ChaosControls chaos;
  private final RaftNode raft;
  private final FollowerLagSampler lagSampler;
  private final StorageExecutor storage;
  private final PipelineMetrics metrics;
  private final NodeAdmission admission;
  private final AdmissionStrategy strategy;
  private final RequestPipeline pipeline;
  private final RespServer resp;
  /** The RESP listener's transport, chosen when the node is assembled so that a bad choice fails before Raft runs. */
  private final Transport transport = Transport.chosen();
  private boolean closed;

  /** A node with the engine's default config, whose lag signals read its own sampler. */
  public StorageNode(NodeConfig config, MeterRegistry registry) {
    this(config, EngineConfig.defaults(), registry, null);
  }

  /**
   * Assembles a node; nothing runs until {@link #start()}.
   *
   * @param engineConfig the admission engine's configuration
   * @param lagSource where the lag signals read a partition's latest leader sample; {@code null} for this node's
   *     own sampler (which has samples only of the partitions this node leads)
   */
  public StorageNode(NodeConfig config, EngineConfig engineConfig, MeterRegistry registry,
      IntFunction<PartitionLag> lagSource) {
    this(config, engineConfig, registry, lagSource, StrategySettings.SPILLWAY);
  }

  /**
   * Assembles a node whose requests are admitted by the strategy of {@code strategy} ({@code --admission}); with
   * {@link StrategyKind#NONE} the storage executor's queue has no bound. {@code engineConfig} is used as given
   * (for codel-only, pass {@link Strategies#engineConfig}).
   */
  public StorageNode(NodeConfig config, EngineConfig engineConfig, MeterRegistry registry,
      IntFunction<PartitionLag> lagSource, StrategySettings strategy) {
    this.config = config;
    this.chaos = new ChaosControls(config.chaos(), config.partitions());
    final PartitionGroups groups = new PartitionGroups(config.peers(), config.partitions());
    this.raft = new RaftNode(config.self(), groups, config.dataDir().resolve("raft"), config.resp().bindHost(),
        config.raft(), chaos);
    this.lagSampler = new FollowerLagSampler(raft, config.lagSampleInterval());
    this.storage = new StorageExecutor(config.nodeId() + "-storage", config.storageThreads(),
        strategy.kind() == StrategyKind.NONE ? StorageExecutor.UNBOUNDED : config.storageQueue());
    this.metrics = new PipelineMetrics(registry, config.nodeId(), storage);
    this.admission = new NodeAdmission(config.nodeId(), engineConfig, config.partitions(),
        lagSource != null ? lagSource : p -> lagSampler.latest(p).orElse(null), config.lagTargets(),
        config.lagMaxSampleAge());
    admission.bindMetrics(registry);
    bindFollowerMetrics(registry);
    final ShardMap shards = new ShardMap(config.partitions());
    this.pipeline = new RequestPipeline(new CommandExecutor(new KvClient(raft), shards), storage,
        shards, admission, config.requestTimeout(), metrics, config.storageCost(),
        this.strategy = Strategies.create(strategy, config.nodeId(), admission));
    this.resp = new RespServer(config.resp(), pipeline,
        new DataCommandParser(config.rangeDefaultLimit(), config.rangeMaxLimit()), new NodeView() {
          @Override
          public String info() {
            return StorageNode.this.info();
          }

          @Override
          public int partitions() {
            return config.partitions();
          }

          @Override
          public List<Integer> ledPartitions() {
            return raft.readyLeaderships();
          }
        }, VERSION);
    resp.eventLoopLag().alsoRecordTo(metrics::eventLoopLag);
  }

  /**
   * {@code spillway_demo_raft_followers_down{node, partition}}: followers of a partition this node leads that are
   * down ({@link io.spillway.demo.admission.FollowerLagSignal#state}); 0 where this node does not lead.
   */
  private void bindFollowerMetrics(MeterRegistry registry) {
    for (int p = 0; p < config.partitions(); p++) {
      final int partition = p;
      io.micrometer.core.instrument.Gauge.builder("spillway.demo.raft.followers.down",
          () -> lagSampler.latest(partition).map(l -> io.spillway.demo.admission.FollowerLagSignal
              .downFollowers(l, config.lagTargets())).orElse(0))
          .description("Followers of a partition led here that are silent or stalled past the grace period")
          .tag("node", config.nodeId()).tag("partition", Integer.toString(partition)).register(registry);
    }
  }

  /** Loads RocksDB, starts Raft (recovering what the data dir holds), lag sampling and the RESP listener. */
  public synchronized void start() throws IOException, InterruptedException {
    startRaftServer();
    startServing();
  }

  /** First half of {@link #start()}: loads RocksDB and starts the Raft server with its recovered partitions. */
  public synchronized void startRaftServer() throws IOException {
    QuietLogging.apply();
    RocksDbNativeLibrary.load(config.dataDir().resolve("native"));
    raft.startServer();
  }

  /** Second half of {@link #start()}: joins the partitions, starts lag sampling and the RESP listener. */
  public synchronized void startServing() throws IOException, InterruptedException {
    raft.join();
    lagSampler.start();
    admission.start();
    resp.start(config.nodeId(), config.respThreads(), transport);
    LOG.info("{}: serving RESP on {} ({}), partitions {} of {}", config.nodeId(), resp.address(),
        transport, raft.hostedPartitions(), config.partitions());
  }

  /** The node's configuration. */
  public NodeConfig config() {
    return config;
  }

  /** How far behind their schedule the RESP event loops run. */
  public EventLoopLag eventLoopLag() {
    return resp.eventLoopLag();
  }

  /** The RESP listener's bound address. */
  public InetSocketAddress respAddress() {
    return resp.address();
  }

  /** The Raft side, for status, tests and ordered shutdown. */
  public RaftNode raft() {
    return raft;
  }

  /** Follower lag of the partitions this node leads. */
  public FollowerLagSampler lag() {
    return lagSampler;
  }

  /** Fault injection of this node. */
  public ChaosControls chaos() {
    return chaos;
  }

  /** Request counters. */
  public PipelineMetrics metrics() {
    return metrics;
  }

  /** The admission engine of this node. */
  public NodeAdmission admission() {
    return admission;
  }

  /** The node's admission strategy. */
  public AdmissionStrategy strategy() {
    return strategy;
  }

  /**
   * Requests this node holds: its strategy's admitted-and-unfinished and queued ones, and the reads it proxied to
   * their partition's leader after their permit was released ({@link RequestPipeline#proxiedReadsWithoutPermit}).
   */
  public long pendingWork() {
    return strategy.pending() + pipeline.proxiedReadsWithoutPermit();
  }

  /** The storage executor, for status. */
  public StorageExecutor storage() {
    return storage;
  }

  private String info() {
    return "# Server\r\nredis_version:7.2.0\r\nspillway_version:" + VERSION + "\r\nredis_mode:standalone\r\n"
        + "node_id:" + config.nodeId() + "\r\ntcp_port:" + resp.address().getPort() + "\r\n"
        + "\r\n# Clients\r\nconnected_clients:" + resp.connections() + "\r\n"
        + "\r\n# Spillway\r\npartitions:" + config.partitions() + "\r\nhosted_partitions:"
        + raft.hostedPartitions() + "\r\nleaderships:" + raft.leaderships() + "\r\n";
  }

  /**
   * Stops the node: no new connections or requests, then Raft (each state machine closes its RocksDB).
   *
   * @param handOffTimeout if positive, first hand this node's leaderships to caught-up followers, waiting at most
   *     this long per partition (used on SIGTERM in the multi-process mode)
   */
  public synchronized void close(Duration handOffTimeout) {
    if (closed) {
      return;
    }
    closed = true;
    final long start = System.nanoTime();
    resp.close();
    LOG.debug("{}: RESP closed after {} ms", config.nodeId(), (System.nanoTime() - start) / 1_000_000);
    if (!handOffTimeout.isZero() && !handOffTimeout.isNegative()) {
      raft.handOffLeaderships(handOffTimeout);
    }
    storage.close();
    strategy.close();
    admission.close();
    lagSampler.close();
    chaos.reset();
    LOG.debug("{}: executors closed after {} ms", config.nodeId(), (System.nanoTime() - start) / 1_000_000);
    raft.close();
    LOG.debug("{}: Raft closed after {} ms", config.nodeId(), (System.nanoTime() - start) / 1_000_000);
    LOG.info("{}: stopped", config.nodeId());
  }

  /** Stops the node without a leadership hand-off. */
  @Override
  public void close() {
    close(Duration.ZERO);
  }
}
