package io.spillway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shutdown hook runs its steps, and never holds the JVM past its deadline when a step blocks. */
@Timeout(30)
class ShutdownTest {

  @Test
  void aHookRunsItsSteps() throws Exception {
    final CountDownLatch ran = new CountDownLatch(1);
    final Thread hook = Shutdown.hook("test-shutdown", Duration.ofSeconds(10), ran::countDown);
    hook.start();
    hook.join(10_000);
    assertThat(ran.getCount()).isZero();
    assertThat(hook.isAlive()).isFalse();
  }

  @Test
  void aHookWhoseStepBlocksReturnsAtItsDeadline() throws Exception {
    final CountDownLatch never = new CountDownLatch(1);
    final Thread hook = Shutdown.hook("test-shutdown", Duration.ofMillis(200), () -> {
      try {
        never.await(); // as a node's close waiting for a lock its own start holds
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    hook.start();
    hook.join(TimeUnit.SECONDS.toMillis(20)); // a bound on the test, not the assertion: the hook must end by itself
    assertThat(hook.isAlive()).as("the hook thread, 20 s after a 200 ms deadline").isFalse();
    never.countDown();
  }
}
