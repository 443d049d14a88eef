package io.spillway.demo;

import io.spillway.demo.load.WriteLedger;
import io.spillway.demo.verify.LedgerVerifier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The {@code verify} subcommand: reads every acknowledged write of load ledgers back from every target. */
@Command(name = "verify", sortOptions = false, abbreviateSynopsis = true,
    description = "Read acknowledged writes back: exit 0 only if every acknowledged key reads back with its value "
        + "from every target, 1 otherwise.")
final class VerifyCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--ledger", paramLabel = "FILE", required = true, split = ",",
      description = "Ledgers written by load --ledger.")
  List<Path> ledgers;

  @Option(names = "--targets", paramLabel = "HOST:PORT", split = ",", defaultValue = LoadCommand.DEFAULT_TARGETS,
      converter = CliConverters.HostPort.class, description = "host:port,... to read from (default: "
          + "${DEFAULT-VALUE}).")
  List<InetSocketAddress> targets;

  @Option(names = "--timeout-ms", paramLabel = "N", defaultValue = "60000", description = "How long each target "
      + "may take, retrying -BUSY and errors (default: ${DEFAULT-VALUE}).")
  long timeoutMs;

  @Override
  public Integer call() throws Exception {
    StorageNodeMain.inRange(spec, "--timeout-ms", timeoutMs, 1, Long.MAX_VALUE / 2);
    for (Path f : ledgers) {
      StorageNodeMain.readableFile(spec, "--ledger", f);
    }
    final Map<String, String> acked = new LinkedHashMap<>();
    for (Path f : ledgers) {
      acked.putAll(WriteLedger.read(f));
    }
    boolean ok = true;
    final List<CompletableFuture<LedgerVerifier.Result>> checks = new ArrayList<>();
    for (InetSocketAddress t : targets) { // every target at once, one thread each
      checks.add(CompletableFuture.supplyAsync(() -> {
        try {
          return LedgerVerifier.check(t, acked, timeoutMs);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, r -> new Thread(r, "verify-" + t.getPort()).start()));
    }
    for (CompletableFuture<LedgerVerifier.Result> c : checks) {
      final LedgerVerifier.Result r = c.get(timeoutMs + 30_000, TimeUnit.MILLISECONDS);
      System.out.printf(Locale.ROOT, "verify %s: %d acknowledged keys, lost %d, changed %d, unreadable %d %s%n",
          r.target(), r.checked(), r.lost(), r.changed(), r.unreadable(), r.ok() ? "OK" : "FAIL " + r.examples());
      ok &= r.ok();
    }
    return ok ? 0 : 1;
  }
}
