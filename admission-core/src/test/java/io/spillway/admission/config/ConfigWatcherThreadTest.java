package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.EngineConfig;
import io.spillway.testkit.VirtualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watcher thread notices an edited file by itself (events or polling), applies it, and stops on close. */
class ConfigWatcherThreadTest {

  @TempDir
  Path dir;

  @Test
  void theWatcherThreadAppliesAnEditedFileAndStopsOnClose() throws Exception {
    Path file = dir.resolve("spillway.yaml");
    Files.writeString(file, ConfigReloadTest.BASE);
    AdmissionEngine engine = AdmissionEngine.create(SpillwayConfig.load(file), new VirtualClock(0)::read);
    BlockingQueue<ReloadResult> results = new LinkedBlockingQueue<>();
    ConfigWatcher<EngineConfig> watcher = new ConfigWatcher<>(file, SpillwayConfig.loader(), engine.config(),
        engine::reconfigure, results::add, Duration.ofMillis(20), Duration.ofMillis(20));
    try (watcher) {
      watcher.start();
      Files.writeString(file, ConfigReloadTest.BASE + "dry-run: true\n");
      ReloadResult applied = results.poll(20, TimeUnit.SECONDS);
      assertThat(applied).isNotNull();
      assertThat(applied.status()).isEqualTo(ReloadResult.Status.APPLIED);
      assertThat(engine.config().dryRun()).isTrue();

      Files.writeString(file, ConfigReloadTest.BASE + "dry-run: maybe\n");
      ReloadResult refused = results.poll(20, TimeUnit.SECONDS);
      assertThat(refused).isNotNull();
      assertThat(refused.status()).isEqualTo(ReloadResult.Status.REJECTED);
      assertThat(engine.config().dryRun()).isTrue();
    }
    assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("spillway-config-watcher"));
  }
}
