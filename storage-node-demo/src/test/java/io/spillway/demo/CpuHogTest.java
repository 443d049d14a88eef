package io.spillway.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** {@code --cpu-hog N}: accepted by demo, cluster and node, validated, and N spinning threads that stop. */
@Timeout(60)
class CpuHogTest {

  private static CommandLine.ParseResult parse(String... args) {
    return StorageNodeMain.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()))
        .parseArgs(args);
  }

  private static CpuHogOption option(String... args) {
    return ((DemoMode) parse(args).subcommand().commandSpec().userObject()).cpuHog;
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 64})
  void validCountsAreAcceptedInEveryServingMode(int n) {
    assertThat(option("demo", "--cpu-hog", Integer.toString(n)).threads()).isEqualTo(n);
    assertThat(((ClusterCommand) parse("cluster", "--cpu-hog=" + n).subcommand().commandSpec().userObject())
        .node.cpuHog.threads()).as("cluster").isEqualTo(n);
    assertThat(((NodeCommand) parse("node", "--id", "n1", "--peers", "n1=h:1,n2=h:2,n3=h:3", "--cpu-hog", "" + n)
        .subcommand().commandSpec().userObject()).node.cpuHog.threads()).as("node").isEqualTo(n);
  }

  @Test
  void absentMeansNoHog() {
    assertThat(option("demo", "--duration", "5").threads()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1", "65", "1000"})
  void countsOutOfRangeAreRefusedNamingTheOptionAndTheValue(String n) {
    assertThatThrownBy(() -> option("demo", "--cpu-hog", n).threads())
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessage("Invalid value for option '--cpu-hog': " + n + " is not in [0, 64]");
  }

  @ParameterizedTest
  @ValueSource(ints = {-1, 65})
  void theHogItselfRefusesCountsOutOfRange(int n) {
    assertThatThrownBy(() -> CpuHog.start(n)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--cpu-hog must be a number of threads in [0, 64], was " + n);
  }

  @Test
  void aNonNumberIsRefusedNamingTheOptionAndTheValue() {
    assertThatThrownBy(() -> option("demo", "--cpu-hog", "two"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessage("Invalid value for option '--cpu-hog': 'two' is not an int");
    assertThatThrownBy(() -> option("demo", "--cpu-hog"))
        .hasMessage("Missing required parameter for option '--cpu-hog' (N)");
  }

  @Test
  void theHelpOfEveryServingModeListsTheOption() {
    for (String mode : List.of("demo", "cluster", "node")) {
      final StringWriter out = new StringWriter();
      StorageNodeMain.execute(new String[] {mode, "--help"}, new PrintWriter(out, true),
          new PrintWriter(new StringWriter()));
      assertThat(out.toString()).as(mode).contains("--cpu-hog=N").contains("0..64");
    }
  }

  @Test
  void startsNamedDaemonThreadsAtNormalPriorityAndStopsThem() throws Exception {
    final CpuHog hog = CpuHog.start(3);
    final List<Thread> threads = hog.threads();
    try {
      assertThat(threads).extracting(Thread::getName).containsExactly("cpu-hog-1", "cpu-hog-2", "cpu-hog-3");
      assertThat(threads).allSatisfy(t -> {
        assertThat(t.isAlive()).as("%s alive", t.getName()).isTrue();
        assertThat(t.isDaemon()).as("%s daemon", t.getName()).isTrue();
        assertThat(t.getPriority()).isEqualTo(Thread.NORM_PRIORITY);
      });
    } finally {
      assertThat(hog.stop()).as("every thread ended within the stop timeout").isTrue();
    }
    for (Thread t : threads) {
      t.join(10_000); // already ended: returns at once
      assertThat(t.isAlive()).as("%s after stop", t.getName()).isFalse();
      assertThat(t.getState()).isEqualTo(Thread.State.TERMINATED);
    }
  }

  @Test
  void zeroThreadsStartsNothing() throws Exception {
    final CpuHog hog = CpuHog.start(0);
    assertThat(hog.threads()).isEmpty();
    assertThat(hog.stop()).isTrue();
  }
}
