package io.spillway.admission.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import io.spillway.codel.QueueMode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AdmissionListenersTest {

  /** Records every event it is given. */
  static final class Recorder implements AdmissionListener {
    final List<Object> events = new CopyOnWriteArrayList<>();

    @Override
    public void onAdmit(AdmitEvent event) {
      events.add(event);
    }

    @Override
    public void onReject(RejectEvent event) {
      events.add(event);
    }

    @Override
    public void onLimitChange(LimitChangeEvent event) {
      events.add(event);
    }

    @Override
    public void onModeChange(ModeChangeEvent event) {
      events.add(event);
    }

    @Override
    public void onReload(ReloadEvent event) {
      events.add(event);
    }
  }

  /** Throws from every method. */
  static final class Thrower implements AdmissionListener {
    @Override
    public void onAdmit(AdmitEvent event) {
      throw new IllegalStateException("broken listener");
    }

    @Override
    public void onReject(RejectEvent event) {
      throw new StackOverflowError("deep listener");
    }

    @Override
    public void onLimitChange(LimitChangeEvent event) {
      throw new AssertionError("asserting listener");
    }
  }

  @Test
  void deliversEachEventToEveryListenerInOrder() {
    AdmissionListeners listeners = new AdmissionListeners();
    Recorder first = new Recorder();
    Recorder second = new Recorder();
    listeners.add(first);
    listeners.add(second);

    listeners.admitted(OpType.READ, Tier.T1, "web", 0, false, 10);
    listeners.rejected(OpType.WRITE, Tier.T5, "batch", Reason.SHED_TIER, 2_000_000, false, 11);
    listeners.limitChanged(32, 30, 12);
    listeners.modeChanged(OpType.SCAN, Tier.T4, QueueMode.FIFO, QueueMode.LIFO, 13);
    listeners.reloaded(new ReloadEvent(true, "spillway.yaml", List.of("limit.max: 100 -> 200"), List.of()));

    List<Object> expected = List.of(
        new AdmitEvent(OpType.READ, Tier.T1, "web", 0, false, 10),
        new RejectEvent(OpType.WRITE, Tier.T5, "batch", Reason.SHED_TIER, 2_000_000, false, 11),
        new LimitChangeEvent(32, 30, 12),
        new ModeChangeEvent(OpType.SCAN, Tier.T4, QueueMode.FIFO, QueueMode.LIFO, 13),
        new ReloadEvent(true, "spillway.yaml", List.of("limit.max: 100 -> 200"), List.of()));
    assertThat(first.events).isEqualTo(expected);
    assertThat(second.events).isEqualTo(expected);
    assertThat(listeners.failures()).isZero();
  }

  @Test
  void aThrowingListenerNeitherPropagatesNorStopsTheOthers() {
    AdmissionListeners listeners = new AdmissionListeners();
    Recorder after = new Recorder();
    listeners.add(new Thrower());
    listeners.add(after);

    assertThatCode(() -> {
      listeners.admitted(OpType.READ, Tier.T0, "raft", 0, false, 1);
      listeners.rejected(OpType.READ, Tier.T4, "report", Reason.QUEUE_FULL, 5, false, 2);
      listeners.limitChanged(10, 11, 3);
    }).doesNotThrowAnyException();

    assertThat(listeners.failures()).isEqualTo(3);
    assertThat(after.events).hasSize(3);
  }

  @Test
  void outOfMemoryIsNotSwallowed() {
    AdmissionListeners listeners = new AdmissionListeners();
    listeners.add(new AdmissionListener() {
      @Override
      public void onAdmit(AdmitEvent event) {
        throw new OutOfMemoryError("simulated");
      }
    });
    assertThatThrownBy(() -> listeners.admitted(OpType.READ, Tier.T0, "raft", 0, false, 1))
        .isInstanceOf(OutOfMemoryError.class);
  }

  @Test
  void hasAnyFollowsRegistration() {
    AdmissionListeners listeners = new AdmissionListeners();
    Recorder recorder = new Recorder();
    assertThat(listeners.hasAny()).isFalse();
    listeners.add(recorder);
    assertThat(listeners.hasAny()).isTrue();
    assertThat(listeners.remove(recorder)).isTrue();
    assertThat(listeners.remove(recorder)).isFalse();
    assertThat(listeners.hasAny()).isFalse();
    listeners.admitted(OpType.READ, Tier.T0, "raft", 0, false, 1);
    assertThat(recorder.events).isEmpty();
  }

  @Test
  void registrationWhileDispatchingFromManyThreadsLosesNoEventOfAStableListener() throws Exception {
    AdmissionListeners listeners = new AdmissionListeners();
    Recorder stable = new Recorder();
    listeners.add(stable);
    int threads = 4;
    int perThread = 2_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i++) {
            listeners.rejected(OpType.READ, Tier.T5, "c", Reason.SHED_TIER, 1, false, i);
          }
        }));
      }
      futures.add(pool.submit(() -> {
        for (int i = 0; i < 500; i++) {
          Recorder transientListener = new Recorder();
          listeners.add(transientListener);
          listeners.remove(transientListener);
        }
      }));
      for (Future<?> f : futures) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(stable.events).hasSize(threads * perThread);
  }

  @Test
  void rejectEventRefusesTheAdmittedReason() {
    assertThatThrownBy(() -> new RejectEvent(OpType.READ, Tier.T0, "c", Reason.ADMITTED, 0, false, 0))
        .hasMessage("reason must be a rejection, was ADMITTED");
  }
}
