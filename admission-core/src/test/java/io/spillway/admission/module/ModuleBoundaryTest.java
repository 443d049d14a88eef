package io.spillway.admission.module;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.AdmissionEngine;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.io.PrintWriter;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module boundary of {@code io.spillway.admission}: only the API packages are exported, and a consumer on the
 * module path cannot reach the control algorithms. The second half compiles a small consumer module with the real
 * compiler against the built classes, once using the API (it compiles) and once importing an internal type (the
 * compiler refuses it).
 */
class ModuleBoundaryTest {

  private static final Set<String> API = Set.of("io.spillway.admission", "io.spillway.admission.config",
      "io.spillway.admission.event", "io.spillway.admission.metrics");

  @Test
  void onlyTheApiPackagesAreExportedAndNoneOnlyToFriends() throws IOException, URISyntaxException {
    ModuleDescriptor descriptor = descriptor();
    assertThat(descriptor.name()).isEqualTo("io.spillway.admission");
    assertThat(descriptor.exports()).allSatisfy(e -> assertThat(e.isQualified()).isFalse());
    assertThat(descriptor.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()))
        .isEqualTo(API);
    assertThat(descriptor.opens()).isEmpty();
  }

  @Test
  void aConsumerModuleCompilesAgainstTheApi(@TempDir Path dir) throws Exception {
    String out = compileConsumer(dir, """
        import io.spillway.admission.AdmissionEngine;
        import io.spillway.admission.EngineConfig;
        class Consumer { AdmissionEngine engine = AdmissionEngine.create(EngineConfig.defaults()); }
        """);
    assertThat(out).isEmpty();
  }

  @Test
  void aConsumerModuleCannotReachTheControlAlgorithms(@TempDir Path dir) throws Exception {
    String out = compileConsumer(dir, """
        import io.spillway.admission.control.LatencyRecorder;
        class Consumer { LatencyRecorder recorder; }
        """);
    assertThat(out).contains("package io.spillway.admission.control is not visible");
  }

  @Test
  void aConsumerModuleCannotReachTheRequestPathQueuesOrLoop(@TempDir Path dir) throws Exception {
    String out = compileConsumer(dir, """
        import io.spillway.admission.path.AdmissionPath;
        import io.spillway.admission.queue.Dispatcher;
        import io.spillway.admission.loop.ControlLoop;
        class Consumer { AdmissionPath path; Dispatcher dispatcher; ControlLoop loop; }
        """);
    assertThat(out).contains("package io.spillway.admission.path is not visible",
        "package io.spillway.admission.queue is not visible", "package io.spillway.admission.loop is not visible");
  }

  /** The config key table is public for EngineConfig and the YAML binding, not for a consumer. */
  @Test
  void aConsumerModuleCannotReachTheConfigKeyTable(@TempDir Path dir) throws Exception {
    String out = compileConsumer(dir, """
        import io.spillway.admission.config.keys.EngineKeys;
        class Consumer { Object keys = EngineKeys.all(); }
        """);
    assertThat(out).contains("package io.spillway.admission.config.keys is not visible");
  }

  private static ModuleDescriptor descriptor() throws IOException, URISyntaxException {
    try (InputStream in = Files.newInputStream(locationOf(AdmissionEngine.class).resolve("module-info.class"))) {
      return ModuleDescriptor.read(in);
    }
  }

  /** Compiles module {@code consumer} (one class in package {@code consumer}); returns the compiler's diagnostics. */
  private static String compileConsumer(Path dir, String body) throws IOException, URISyntaxException {
    Path src = dir.resolve("src");
    Files.createDirectories(src.resolve("consumer"));
    Files.writeString(src.resolve("module-info.java"), "module consumer { requires io.spillway.admission; }");
    Files.writeString(src.resolve("consumer/Consumer.java"), "package consumer;\n" + body);
    String modulePath = List.of(locationOf(AdmissionEngine.class), locationOf(io.spillway.codel.MpscCodelQueue.class),
        locationOf(io.spillway.pid.PidController.class), locationOf(io.spillway.durations.Durations.class),
        locationOf(org.HdrHistogram.Histogram.class)).stream()
        .map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator));
    ToolProvider javac = ToolProvider.findFirst("javac").orElseThrow();
    StringWriter diagnostics = new StringWriter();
    PrintWriter writer = new PrintWriter(diagnostics);
    javac.run(writer, writer, "--module-path", modulePath, "-d", dir.resolve("out").toString(), "-proc:none",
        src.resolve("module-info.java").toString(), src.resolve("consumer/Consumer.java").toString());
    writer.flush();
    return diagnostics.toString();
  }

  private static Path locationOf(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}
