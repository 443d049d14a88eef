package io.spillway.codel;

import io.spillway.testkit.VirtualClock;
import static io.spillway.codel.RecordingDropHandler.drop;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The consumer serves a healthy FIFO queue straight from the producers' ring and everything else from its private
 * deque; these tests pin the rules where the two paths meet. Virtual time: target 5 ms, interval 100 ms, queue
 * timeout 1 s.
 */
class MpscCodelQueueServingPathTest {

  private static final long START = 3_000_000_000L;

  private final VirtualClock ticker = new VirtualClock(START);
  private final RecordingDropHandler<String> drops = new RecordingDropHandler<>();
  private final MpscCodelQueue<String> queue =
      new MpscCodelQueue<>(CodelConfig.builder().capacity(16).build(), ticker::read, drops);

  @Test
  void arrivalOrderHoldsAcrossEntriesAlreadyMovedToTheDequeAndNewOnes() {
    long now = ticker.read();
    queue.offer("a");
    queue.offer("expired", now);
    queue.offer("b");
    assertThat(queue.dropExpired()).isEqualTo(1); // a and b now wait in the consumer's deque
    queue.offer("c");
    queue.offer("d");
    assertThat(pollAll()).containsExactly("a", "b", "c", "d");
    assertThat(drops.takeAll()).containsExactly(drop("expired", DropReason.DEADLINE));
    assertThat(queue.stats().served()).isEqualTo(4);
    assertThat(queue.size()).isZero();
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void anEntryTheDropHandlerOffersWaitsForTheNextCall() {
    List<String> seen = new ArrayList<>();
    long[] clock = {START};
    MpscCodelQueue<String>[] self = newArray();
    // Re-offers every dropped entry with a deadline already past: served within the same call, it would be dropped
    // and re-offered forever.
    self[0] = new MpscCodelQueue<>(CodelConfig.defaults(), () -> clock[0], (e, r) -> {
      seen.add(e + ":" + r);
      self[0].offer(e + "'", clock[0]);
    });
    self[0].offer("a", clock[0]);
    assertThat(self[0].poll()).isNull();
    assertThat(seen).containsExactly("a:DEADLINE");
    assertThat(self[0].size()).isEqualTo(1);
    assertThat(self[0].poll()).isNull();
    assertThat(seen).containsExactly("a:DEADLINE", "a':DEADLINE");
    assertThat(self[0].stats().drops(DropReason.DEADLINE)).isEqualTo(2);
  }

  @Test
  void anEntryStampedBeforeItsPredecessorReadsThePredecessorsTime() {
    // Two producers race: the one that claims the later slot read the clock first. A ticker stepping back plays it.
    long[] clock = {START};
    MpscCodelQueue<String> q = new MpscCodelQueue<>(CodelConfig.defaults(), () -> clock[0], drops);
    q.offer("first");
    clock[0] = START - Duration.ofMillis(400).toNanos();
    q.offer("second"); // stamped 400 ms before "first", claimed after it
    clock[0] = START + Duration.ofMillis(700).toNanos();
    assertThat(q.poll()).isEqualTo("first");
    // By its own stamp "second" has waited 1.1 s, past the 1 s queue timeout; it reads as waiting 700 ms.
    assertThat(q.poll()).isEqualTo("second");
    assertThat(drops.drops).isEmpty();
  }

  @Test
  void aDropOnTheFastPathFallsBackWithoutLosingOrder() {
    long now = ticker.read();
    queue.offer("late", now + 1);
    queue.offer("a");
    queue.offer("b");
    ticker.advanceNanos(1);
    assertThat(queue.poll()).isEqualTo("a");
    assertThat(drops.takeAll()).containsExactly(drop("late", DropReason.DEADLINE));
    queue.offer("c");
    assertThat(pollAll()).containsExactly("b", "c");
    assertThat(queue.stats().served()).isEqualTo(3);
    assertThat(queue.stats().drops(DropReason.DEADLINE)).isEqualTo(1);
  }

  @SuppressWarnings("unchecked")
  private static MpscCodelQueue<String>[] newArray() {
    return new MpscCodelQueue[1];
  }

  private List<String> pollAll() {
    List<String> out = new ArrayList<>();
    for (String e = queue.poll(); e != null; e = queue.poll()) {
      out.add(e);
    }
    return out;
  }
}
