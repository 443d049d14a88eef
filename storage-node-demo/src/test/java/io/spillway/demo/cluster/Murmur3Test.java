package io.spillway.demo.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Murmur3Test {
  private static int hash(String s, int seed) {
    return Murmur3.hash32(s.getBytes(StandardCharsets.UTF_8), seed);
  }

  /** Published MurmurHash3_x86_32 vectors (smhasher; also used by Guava's and Apache Commons' tests). */
  @Test
  void matchesReferenceVectors() {
    assertThat(hash("", 0)).isEqualTo(0);
    assertThat(hash("", 1)).isEqualTo(0x514E28B7);
    assertThat(hash("", 0xffffffff)).isEqualTo(0x81F16F39);
    assertThat(Murmur3.hash32(new byte[] {0, 0, 0, 0}, 0)).isEqualTo(0x2362F9DE);
    assertThat(Murmur3.hash32(new byte[] {0x21, 0x43, 0x65, (byte) 0x87}, 0)).isEqualTo(0xF55B516B);
    assertThat(Murmur3.hash32(new byte[] {0x21, 0x43, 0x65}, 0)).isEqualTo(0x7E4A8634);
    assertThat(Murmur3.hash32(new byte[] {0x21, 0x43}, 0)).isEqualTo(0xA0F7B07A);
    assertThat(Murmur3.hash32(new byte[] {0x21}, 0)).isEqualTo(0x72661CF4);
    assertThat(hash("Hello, world!", 1234)).isEqualTo(0xFAF6CDB3);
    assertThat(hash("The quick brown fox jumps over the lazy dog", 0)).isEqualTo(0x2E4FF723);
  }

  @Test
  void shardsAreStableAndCoverAllPartitions() {
    final ShardMap map = new ShardMap(3);
    final boolean[] seen = new boolean[3];
    for (int i = 0; i < 1000; i++) {
      final byte[] key = ("key" + i).getBytes(StandardCharsets.UTF_8);
      final int shard = ShardMap.shardOf(key);
      assertThat(shard).isBetween(0, 63).isEqualTo(Murmur3.hash32(key) & 63);
      assertThat(map.partitionOf(key)).isEqualTo(shard % 3);
      seen[map.partitionOf(key)] = true;
    }
    assertThat(seen).containsOnly(true);
    assertThatThrownBy(() -> new ShardMap(65)).hasMessage("partitions must be in [1, 64], was 65");
  }
}
