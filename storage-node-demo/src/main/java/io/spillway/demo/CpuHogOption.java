package io.spillway.demo;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code --cpu-hog N} of the {@code demo}, {@code cluster} and {@code node} subcommands ({@link CpuHog}). */
final class CpuHogOption {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--cpu-hog", paramLabel = "N", defaultValue = "0", description = "Spin N threads at normal "
      + "priority for the whole run, 0.." + CpuHog.MAX_THREADS + ": a noisy co-tenant burning CPU, to reproduce a "
      + "busy host (default: ${DEFAULT-VALUE}).")
  int threads;

  /** The validated thread count. */
  int threads() {
    StorageNodeMain.inRange(spec, "--cpu-hog", threads, 0, CpuHog.MAX_THREADS);
    return threads;
  }
}
