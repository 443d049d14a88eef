package io.spillway.demo.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StorageExecutorTest {

  @Test
  void criticalTasksRunAheadOfTheOthersAndEachClassInArrivalOrder() throws InterruptedException {
    try (StorageExecutor executor = new StorageExecutor("test-storage", 1, 16)) {
      BusyStorageThread busy = BusyStorageThread.occupy(executor);
      List<String> order = new CopyOnWriteArrayList<>();
      CountDownLatch done = new CountDownLatch(5);
      for (String name : List.of("t3-a", "t1-a", "t5-a", "t0-a", "t3-b")) {
        boolean critical = name.startsWith("t0") || name.startsWith("t1");
        executor.execute(() -> {
          order.add(name);
          done.countDown();
        }, critical);
      }
      assertThat(executor.queued()).isEqualTo(5);
      busy.release();
      assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(order).containsExactly("t1-a", "t0-a", "t3-a", "t5-a", "t3-b");
    }
  }

  @Test
  void aFullQueueRefusesCriticalAndOtherTasksAlikeUntilItsTasksStart() throws InterruptedException {
    try (StorageExecutor executor = new StorageExecutor("test-storage", 1, 2)) {
      BusyStorageThread busy = BusyStorageThread.occupy(executor);
      CountDownLatch queuedRan = new CountDownLatch(2);
      executor.execute(queuedRan::countDown, false);
      executor.execute(queuedRan::countDown, true);
      assertThatThrownBy(() -> executor.execute(() -> { }, true))
          .isInstanceOf(RejectedExecutionException.class).hasMessageContaining("2 tasks waiting");
      busy.release();
      assertThat(queuedRan.await(10, TimeUnit.SECONDS)).isTrue();
      CountDownLatch ran = new CountDownLatch(2);
      executor.execute(ran::countDown, false);
      executor.execute(ran::countDown, false);
      assertThat(ran.await(10, TimeUnit.SECONDS)).as("room for two again once the queue ran").isTrue();
    }
  }

  @Test
  void theUnboundedQueueOfTheNaiveServerStaysInArrivalOrder() throws InterruptedException {
    try (StorageExecutor executor = new StorageExecutor("test-storage", 1, StorageExecutor.UNBOUNDED)) {
      BusyStorageThread busy = BusyStorageThread.occupy(executor);
      List<String> order = new CopyOnWriteArrayList<>();
      CountDownLatch done = new CountDownLatch(2);
      executor.execute(() -> {
        order.add("t5");
        done.countDown();
      }, false);
      executor.execute(() -> {
        order.add("t1");
        done.countDown();
      }, true);
      busy.release();
      assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(order).containsExactly("t5", "t1");
    }
  }
}
