package io.spillway.codel;

import io.spillway.testkit.VirtualClock;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.statistics.Statistics;

/**
 * Differential property: for random sequences of offers, polls, clock advances, dropExpired calls and
 * reconfigurations, {@link MpscCodelQueue} serves the same entries in the same order and drops the same entries for
 * the same reasons as {@link ReferenceCodelQueue}.
 */
class CodelQueueModelTest {

  private static final long START = 1_000_000_000L;
  private static final RandomDistribution UNIFORM = RandomDistribution.uniform();
  private static final List<CodelConfig> CONFIGS = List.of(
      config(5, 100, 8, 2.0, 250),
      config(5, 100, 3, 2.0, 250),
      config(10, 50, 40, 1.5, 120),   // grows storage past the first ring
      config(2, 30, 8, 4.0, 60),
      config(5, 100, 8, 2.0, 60).toBuilder().deadlineOverridesTimeout(true).build()); // deadlines of up to 400 ms

  private static CodelConfig config(int targetMs, int intervalMs, int capacity, double slough, int timeoutMs) {
    return CodelConfig.builder().target(Duration.ofMillis(targetMs)).interval(Duration.ofMillis(intervalMs))
        .capacity(capacity).sloughFactor(slough).queueTimeout(Duration.ofMillis(timeoutMs)).build();
  }

  /** One step of a scenario. */
  interface Op {}

  static final class Offer implements Op {
    final long deadlineOffsetMillis; // negative: no deadline

    Offer(long deadlineOffsetMillis) {
      this.deadlineOffsetMillis = deadlineOffsetMillis;
    }

    @Override
    public String toString() {
      return deadlineOffsetMillis < 0 ? "offer" : "offer(deadline+" + deadlineOffsetMillis + "ms)";
    }
  }

  static final class Poll implements Op {
    @Override
    public String toString() {
      return "poll";
    }
  }

  static final class DropExpired implements Op {
    @Override
    public String toString() {
      return "dropExpired";
    }
  }

  static final class Advance implements Op {
    final long micros;

    Advance(long micros) {
      this.micros = micros;
    }

    @Override
    public String toString() {
      return "advance(" + micros + "us)";
    }
  }

  static final class Reconfigure implements Op {
    final int config;

    Reconfigure(int config) {
      this.config = config;
    }

    @Override
    public String toString() {
      return "reconfigure(" + CONFIGS.get(config) + ")";
    }
  }

  @Provide
  Arbitrary<List<Op>> scenarios() {
    Arbitrary<Op> offer = Arbitraries.longs().between(-150, 150).withDistribution(UNIFORM).map(Offer::new);
    // Whole milliseconds make sojourns land exactly on the thresholds, so every boundary comparison is exercised.
    Arbitrary<Op> advance = Arbitraries.oneOf(
        Arbitraries.longs().between(0, 40).withDistribution(UNIFORM).map(ms -> new Advance(ms * 1_000)),
        Arbitraries.longs().between(0, 40_000).withDistribution(UNIFORM).map(Advance::new));
    Arbitrary<Op> reconfigure = Arbitraries.integers().between(0, CONFIGS.size() - 1).map(Reconfigure::new);
    Arbitrary<Op> op = Arbitraries.frequencyOf(
        Tuple.of(7, offer), Tuple.of(3, Arbitraries.just(new Poll())), Tuple.of(5, advance),
        Tuple.of(2, Arbitraries.just(new DropExpired())), Tuple.of(1, reconfigure));
    return op.list().ofMinSize(1).ofMaxSize(400).withSizeDistribution(UNIFORM)
        .edgeCases(edges -> edges.filter(list -> list.size() > 1));
  }

  /** Blocks of a few offers, a clock advance and fewer polls: standing queues form, so LIFO and sloughing occur. */
  @Provide
  Arbitrary<List<Op>> overloadScenarios() {
    Arbitrary<List<Op>> block = Combinators.combine(
        Arbitraries.longs().between(-150, 400).withDistribution(UNIFORM).map(Offer::new).list().ofMinSize(1)
            .ofMaxSize(4),
        Arbitraries.longs().between(100, 8_000).withDistribution(UNIFORM).map(Advance::new),
        Arbitraries.integers().between(0, 2),
        Arbitraries.integers().between(0, 9)).as((offers, advance, polls, other) -> {
          List<Op> ops = new ArrayList<>(offers);
          ops.add(advance);
          for (int i = 0; i < polls; i++) {
            ops.add(new Poll());
          }
          if (other == 0) {
            ops.add(new DropExpired());
          } else if (other == 1) {
            ops.add(new Reconfigure(other % CONFIGS.size()));
          }
          return ops;
        });
    return block.list().ofMinSize(60).ofMaxSize(150).withSizeDistribution(UNIFORM).map(blocks -> {
      List<Op> ops = new ArrayList<>();
      blocks.forEach(ops::addAll);
      return ops;
    });
  }

  @Property(tries = 300)
  void makesTheSameDecisionsAsTheReferenceModel(
      @ForAll("scenarios") List<Op> ops, @ForAll("initialConfig") int initial) {
    checkAgainstModel(ops, initial);
  }

  @Property(tries = 300)
  void makesTheSameDecisionsAsTheReferenceModelUnderSustainedOverload(
      @ForAll("overloadScenarios") List<Op> ops, @ForAll("initialConfig") int initial) {
    checkAgainstModel(ops, initial);
  }

  private static void checkAgainstModel(List<Op> ops, int initial) {
    VirtualClock ticker = new VirtualClock(START);
    List<String> outcomes = new ArrayList<>();
    MpscCodelQueue<String> queue =
        new MpscCodelQueue<>(CONFIGS.get(initial), ticker::read, (e, r) -> outcomes.add(e + ":" + r));
    ReferenceCodelQueue model = new ReferenceCodelQueue(CONFIGS.get(initial), START);
    int next = 0;
    for (Op op : ops) {
      long now = ticker.read();
      if (op instanceof Offer) {
        long offset = ((Offer) op).deadlineOffsetMillis;
        long deadline = offset < 0 ? MpscCodelQueue.NO_DEADLINE : now + Duration.ofMillis(offset).toNanos();
        String id = "e" + next++;
        assertThat(queue.offer(id, deadline)).as("offer %s", id).isEqualTo(model.offer(id, now, deadline));
      } else if (op instanceof Poll) {
        String served = queue.poll();
        if (served != null) {
          outcomes.add("served:" + served);
        }
        assertThat(served).isEqualTo(model.poll(now));
      } else if (op instanceof DropExpired) {
        assertThat(queue.dropExpired()).isEqualTo(model.dropExpired(now));
      } else if (op instanceof Advance) {
        ticker.advanceNanos(((Advance) op).micros * 1_000);
      } else {
        CodelConfig config = CONFIGS.get(((Reconfigure) op).config);
        queue.reconfigure(config);
        model.reconfigure(config);
      }
      assertThat(outcomes).isEqualTo(model.outcomes);
      assertThat(queue.size()).isEqualTo(model.size());
      if (!(op instanceof Offer) && !(op instanceof Advance) && !(op instanceof Reconfigure)) {
        assertThat(queue.stats().mode()).isEqualTo(model.mode());
      }
    }
    // Drain both: every offered entry ends exactly once.
    ticker.advance(Duration.ofSeconds(1));
    assertThat(queue.dropExpired()).isEqualTo(model.dropExpired(ticker.read()));
    assertThat(outcomes).isEqualTo(model.outcomes).hasSize(next).doesNotHaveDuplicates();
    QueueStats stats = queue.stats();
    assertThat(stats.offered()).isEqualTo(next);
    long dropped = 0;
    for (DropReason reason : DropReason.values()) {
      dropped += stats.drops(reason);
    }
    assertThat(stats.served() + dropped).isEqualTo(next);
    for (DropReason reason : DropReason.values()) {
      Statistics.label("drops").collect(reason + (stats.drops(reason) > 0 ? " seen" : " not seen"));
    }
    Statistics.label("lifo").collect(model.servedNewestFirst ? "served LIFO" : "FIFO only");
    Statistics.label("virtual ms").collect((ticker.read() - START) / 100_000_000L * 100);
  }

  @Provide
  Arbitrary<Integer> initialConfig() {
    return Arbitraries.integers().between(0, CONFIGS.size() - 1);
  }
}
