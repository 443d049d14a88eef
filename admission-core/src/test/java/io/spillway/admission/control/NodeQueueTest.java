package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class NodeQueueTest {

  private static final long MS = 1_000_000L;

  @Test
  void nothingIsKnownBeforeAWaitIsReported() {
    NodeQueue q = new NodeQueue();
    q.add(0L, 500 * MS, 0, 0.1); // completions, but none reported a wait
    assertThat(q.waiting()).isNaN();
    assertThat(q.working()).isNaN();
    assertThat(q.cap(1.0)).isNaN();
    assertThat(q.standing(1.0)).isFalse();
  }

  @Test
  void splitsThePermitsByLittlesLaw() {
    NodeQueue q = new NodeQueue();
    // 0.1 s in which 10 requests completed, each after 20 ms waiting and 20 ms at work: 2 waiting, 2 working.
    q.add(10 * 20 * MS, 10 * 40 * MS, 10, 0.1);
    assertThat(q.waiting()).isCloseTo(2.0, within(1e-9));
    assertThat(q.working()).isCloseTo(2.0, within(1e-9));
    assertThat(q.cap(1.0)).isCloseTo(4.0, within(1e-9));
    assertThat(q.standing(1.0)).isFalse(); // one waiting per worker is what the rule allows
  }

  @Test
  void aQueueOfMoreThanOnePerWorkerStands() {
    NodeQueue q = new NodeQueue();
    // 10 requests of 60 ms waiting and 20 ms at work in 0.1 s: 6 waiting, 2 working.
    q.add(10 * 60 * MS, 10 * 80 * MS, 10, 0.1);
    assertThat(q.standing(1.0)).isTrue();
    assertThat(q.standing(3.5)).isFalse();
  }

  @Test
  void aSingleWorkerCountsAsOneEvenWhenIdleMostOfTheTime() {
    NodeQueue q = new NodeQueue();
    // one request in 1 s, 0.8 s waiting and 0.1 s at work: 0.8 waiting against 0.1 working
    q.add(800 * MS, 900 * MS, 1, 1.0);
    assertThat(q.standing(1.0)).as("0.8 waiting is less than one per worker of at least one").isFalse();
  }

  @Test
  void smoothsOverAboutASecond() {
    NodeQueue q = new NodeQueue();
    q.add(0L, 10 * 20 * MS, 10, 0.1); // 0 waiting, 2 working
    for (int i = 0; i < 10; i++) {
      q.add(10 * 60 * MS, 10 * 80 * MS, 10, 0.1); // 6 waiting from now on
    }
    // ten ticks of weight 0.1 / 1.1 each: 1 - (1 / 1.1)^10 = 0.61 of the way
    assertThat(q.waiting()).isCloseTo(6.0 * (1 - Math.pow(1 / 1.1, 10)), within(1e-9));
  }
}
