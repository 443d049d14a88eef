package io.spillway.demo.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** A partition's keys as a routing client picks them, and the share of uniformly drawn keys each partition owns. */
class ShardMapTest {

  @Test
  void everyKeyBelongsToExactlyOnePartitionAndTheSharesMatchWhatUniformKeysHit() {
    for (int partitions : new int[] {1, 2, 3, 5, 64}) {
      ShardMap shards = new ShardMap(partitions);
      int[] hits = new int[partitions];
      int keys = 200_000;
      for (int k = 0; k < keys; k++) {
        String key = "key:" + k;
        int owners = 0;
        for (int p = 0; p < partitions; p++) {
          if (shards.keysOf(p).test(key)) {
            owners++;
            hits[p]++;
          }
        }
        assertThat(owners).as("owners of %s among %d partitions", key, partitions).isEqualTo(1);
      }
      double shares = 0;
      for (int p = 0; p < partitions; p++) {
        shares += shards.keyShare(p);
        assertThat((double) hits[p] / keys).as("partition %d of %d", p, partitions)
            .isCloseTo(shards.keyShare(p), within(0.01));
      }
      assertThat(shares).isCloseTo(1.0, within(1e-12));
    }
  }

  @Test
  void threePartitionsOwn22And21And21Shards() {
    ShardMap shards = new ShardMap(3);
    assertThat(shards.keyShare(0)).isEqualTo(22.0 / 64);
    assertThat(shards.keyShare(1)).isEqualTo(21.0 / 64);
    assertThat(shards.keyShare(2)).isEqualTo(21.0 / 64);
  }

  @Test
  void aPartitionOutsideTheMapIsNamedInTheError() {
    ShardMap shards = new ShardMap(3);
    assertThatThrownBy(() -> shards.keysOf(3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("partition must be in [0, 3), was 3");
    assertThatThrownBy(() -> shards.keyShare(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("partition must be in [0, 3), was -1");
    Predicate<String> any = new ShardMap(1).keysOf(0);
    assertThat(any.test("anything")).isTrue();
  }
}
