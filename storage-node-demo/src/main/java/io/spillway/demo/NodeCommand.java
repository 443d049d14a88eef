package io.spillway.demo;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.spillway.demo.admin.AdminHttpServer;
import io.spillway.demo.admission.EngineConfigSource;
import io.spillway.demo.raft.PeerAddress;
import io.spillway.demo.strategy.Strategies;
import io.spillway.demo.strategy.StrategySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code node} subcommand: one node of a multi-process cluster, until SIGTERM or Ctrl-C. */
@Command(name = "node", sortOptions = false, abbreviateSynopsis = true,
    description = "One node of a multi-process cluster (the demo's engine config unless --config); "
        + "on SIGTERM it hands the partitions it leads to caught-up followers, then stops.")
final class NodeCommand implements Callable<Integer> {
  @Option(names = "--id", paramLabel = "ID", required = true, order = -2,
      description = "This node's id, one of --peers.")
  String id;

  @Option(names = "--peers", paramLabel = "ID=HOST:PORT", required = true, split = ",", order = -1,
      converter = CliConverters.Peer.class, description = "All nodes as id=host:raftPort,... in the same order on "
          + "every node (e.g. n1=127.0.0.1:9871,n2=127.0.0.1:9872,n3=127.0.0.1:9873).")
  List<PeerAddress> peers;

  @Mixin
  NodeOptions node;

  /** This node's config. */
  NodeConfig config() {
    return node.template().nodeId(id).peers(peers)
        .dataDir(node.dataDir == null ? Path.of("data/" + id) : node.dataDir).respPort(node.respPort).build();
  }

  @Override
  public Integer call() throws Exception {
    final int hogThreads = node.cpuHog.threads();
    final NodeConfig config = config();
    final StrategySettings strategy = node.strategy(config);
    final PrometheusMeterRegistry registry = AdminHttpServer.newRegistry();
    final EngineConfigSource engine = EngineConfigSource.load(node.readableConfig());
    final StorageNode storageNode = new StorageNode(config, Strategies.engineConfig(strategy.kind(),
        engine.initial()), registry, null, strategy);
    final AdminHttpServer admin = node.admin(registry, () -> List.of(storageNode),
        () -> StorageNodeMain.describe(List.of(config), engine),
        () -> EngineConfigSource.yaml(storageNode.admission().engine().config()));
    final CountDownLatch stopped = Shutdown.onShutdown(CpuHog.start(hogThreads), engine, admin,
        () -> storageNode.close(Duration.ofSeconds(3))); // hand leaderships to caught-up followers first
    storageNode.start();
    if (node.engineTrace) {
      EngineTrace.printEverySecond(List.of(storageNode), System.out);
    }
    engine.watch(storageNode.admission()::reconfigure);
    if (admin != null) {
      admin.start(config.resp().bindHost(), node.adminPort);
    }
    stopped.await();
    return 0;
  }
}
