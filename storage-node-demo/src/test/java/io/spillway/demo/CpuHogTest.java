package io.spillway.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --cpu-hog N}: accepted by demo, cluster and node, validated, and N spinning threads that stop. */
@Timeout(60)
class CpuHogTest {

  private static CliOptions demo(String... args) {
    return new CliOptions(List.of(args), DemoMode.OPTIONS, DemoMode.FLAGS);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 64})
  void validCountsAreAcceptedInEveryServingMode(int n) {
    assertThat(CpuHog.threadsOption(demo("--cpu-hog", Integer.toString(n)))).isEqualTo(n);
    assertThat(CpuHog.threadsOption(new CliOptions(List.of("--cpu-hog=" + n), StorageNodeMain.NODE_OPTIONS,
        Set.of("chaos")))).as("cluster and node").isEqualTo(n);
  }

  @Test
  void absentMeansNoHog() {
    assertThat(CpuHog.threadsOption(demo("--duration", "5"))).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1", "65", "1000"})
  void countsOutOfRangeAreRefusedNamingTheOptionAndTheValue(String n) {
    assertThatThrownBy(() -> CpuHog.threadsOption(demo("--cpu-hog", n)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--cpu-hog must be a number of threads in [0, 64], was " + n);
  }

  @Test
  void aNonNumberIsRefusedNamingTheOptionAndTheValue() {
    assertThatThrownBy(() -> CpuHog.threadsOption(demo("--cpu-hog", "two")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("option --cpu-hog must be an integer, was 'two'");
    assertThatThrownBy(() -> demo("--cpu-hog")).hasMessage("option --cpu-hog needs a value");
  }

  @Test
  void theHelpTextListsTheOption() {
    assertThat(StorageNodeMain.HELP).contains("--cpu-hog N").contains("--admin-port, --cpu-hog;");
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
