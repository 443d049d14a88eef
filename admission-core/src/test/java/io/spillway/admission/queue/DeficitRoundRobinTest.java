package io.spillway.admission.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeficitRoundRobinTest {

  /** Three lanes of labelled requests; each lane has {@code backlog[i]} requests. */
  private static final class Lanes implements DeficitRoundRobin.Lanes<Integer> {
    final List<ArrayDeque<Integer>> queues = new ArrayList<>();

    Lanes(int... backlog) {
      for (int i = 0; i < backlog.length; i++) {
        ArrayDeque<Integer> q = new ArrayDeque<>();
        for (int n = 0; n < backlog[i]; n++) {
          q.add(i);
        }
        queues.add(q);
      }
    }

    @Override
    public Integer poll(int lane) {
      return queues.get(lane).poll();
    }
  }

  @Test
  void sharesFollowWeightsWhileAllLanesAreBacklogged() {
    DeficitRoundRobin drr = new DeficitRoundRobin(new int[] {4, 2, 1});
    Lanes lanes = new Lanes(10_000, 10_000, 10_000);
    int[] served = new int[3];
    for (int i = 0; i < 7_000; i++) {
      served[drr.next(lanes)]++;
    }
    assertThat(served).containsExactly(4_000, 2_000, 1_000);
  }

  @Test
  void noLaneWaitsMoreThanOneRound() {
    DeficitRoundRobin drr = new DeficitRoundRobin(new int[] {50, 50, 1});
    Lanes lanes = new Lanes(10_000, 10_000, 100);
    int sinceScan = 0;
    int worst = 0;
    for (int i = 0; i < 5_000; i++) {
      int lane = drr.next(lanes);
      sinceScan = lane == 2 ? 0 : sinceScan + 1;
      worst = Math.max(worst, sinceScan);
    }
    assertThat(worst).as("dispatches between two scans").isLessThanOrEqualTo(100);
  }

  @Test
  void idleLanesBankNoCreditAndEmptyMeansNull() {
    DeficitRoundRobin drr = new DeficitRoundRobin(new int[] {1, 1, 1});
    Lanes lanes = new Lanes(0, 3, 0);
    assertThat(drr.next(lanes)).isEqualTo(1);
    assertThat(drr.next(lanes)).isEqualTo(1);
    assertThat(drr.next(lanes)).isEqualTo(1);
    assertThat(drr.next(lanes)).isNull();
    lanes.queues.get(0).add(0);
    lanes.queues.get(2).add(2);
    assertThat(List.of(drr.next(lanes), drr.next(lanes))).containsExactlyInAnyOrder(0, 2);
  }

  @Test
  void weightsAreValidated() {
    assertThatThrownBy(() -> new DeficitRoundRobin(new int[] {1, 0, 1}))
        .hasMessage("weights[1] must be >= 1, was 0");
  }
}
