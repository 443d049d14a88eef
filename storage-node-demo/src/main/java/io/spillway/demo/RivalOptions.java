package io.spillway.demo;

import io.spillway.demo.pipeline.StorageCost;
import io.spillway.demo.strategy.StrategyKind;
import io.spillway.demo.strategy.StrategySettings;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --admission-rate N} and {@code --admission-concurrency N}: the fixed values of the static rivals (the token
 * bucket's rate, the bulkhead's permits), for the {@code node}, {@code cluster} and {@code shootout} modes.
 */
final class RivalOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--admission-rate", paramLabel = "N", description = "token-bucket: requests/s per node (default: "
      + "the capacity at 95 %% reads; also 0).")
  double rate;

  @Option(names = "--admission-concurrency", paramLabel = "N", description = "bulkhead: fixed concurrency per node "
      + "(default: " + StrategySettings.BULKHEAD_PER_THREAD + " x storage threads; also 0).")
  int concurrency;

  /** Checks both values, naming the option and the value on a bad one. */
  void validate() {
    StorageNodeMain.check(spec, rate >= 0, "--admission-rate", rate + " is not >= 0");
    StorageNodeMain.inRange(spec, "--admission-concurrency", concurrency, 0, 100_000);
  }

  /** The settings of a node admitting with {@code kind}: these values where given, else the defaults. */
  StrategySettings settings(StrategyKind kind, int storageThreads, StorageCost cost) {
    return StrategySettings.defaults(kind, storageThreads, cost, rate, concurrency);
  }
}
