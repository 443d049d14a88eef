package io.spillway.demo;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.spillway.demo.admin.AdminHttpServer;
import io.spillway.demo.admission.EngineConfigSource;
import io.spillway.demo.strategy.StrategySettings;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code cluster} subcommand: three nodes of every partition in this JVM, until SIGTERM or Ctrl-C. */
@Command(name = "cluster", sortOptions = false, abbreviateSynopsis = true,
    description = "Three nodes of every partition in this JVM (the demo's engine config unless --config), until "
        + "Ctrl-C or SIGTERM.")
final class ClusterCommand implements Callable<Integer> {
  @Mixin
  NodeOptions node;

  @Option(names = "--raft-port", paramLabel = "P", defaultValue = "9871",
      description = "Raft gRPC ports P..P+2 of n1..n3 (default: ${DEFAULT-VALUE}).")
  int raftPort;

  /** The three nodes' configs. */
  List<NodeConfig> configs() {
    return DemoCluster.threeNodes(node.template(), node.dataDir == null ? Path.of("data/cluster") : node.dataDir,
        node.bind, new int[] {raftPort, raftPort + 1, raftPort + 2}, node.respPort);
  }

  @Override
  public Integer call() throws Exception {
    final int hogThreads = node.cpuHog.threads();
    final List<NodeConfig> configs = configs();
    final StrategySettings strategy = node.strategy(configs.get(0));
    final PrometheusMeterRegistry registry = AdminHttpServer.newRegistry();
    final EngineConfigSource engine = EngineConfigSource.load(node.readableConfig());
    final DemoCluster cluster = new DemoCluster(configs, engine.initial(), registry, strategy);
    final AdminHttpServer admin = node.admin(registry, cluster::nodes,
        () -> StorageNodeMain.describe(configs, engine), () -> EngineConfigSource.yaml(cluster.engineConfig()));
    final CountDownLatch stopped = Shutdown.onShutdown(CpuHog.start(hogThreads), engine, admin,
        () -> cluster.close()); // followers first, the node leading the most partitions last
    cluster.start();
    if (node.engineTrace) {
      EngineTrace.printEverySecond(cluster.nodes(), System.out);
    }
    engine.watch(cluster::reconfigure);
    for (StorageNode n : cluster.nodes()) {
      System.out.printf("%s: RESP on %s%n", n.config().nodeId(), n.respAddress());
    }
    if (admin != null) {
      admin.start(node.bind, node.adminPort);
    }
    stopped.await();
    return 0;
  }
}
