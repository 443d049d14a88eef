package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.demo.cluster.ShardMap;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.assertj.core.api.Assertions;

/** Which connection sends which key, from the leaders the targets reported. */
class RoutesTest {
  private static final ShardMap SHARDS = new ShardMap(3);

  private static String keyOf(int partition) {
    for (int i = 0; ; i++) {
      final String k = "key:" + i;
      if (SHARDS.partitionOf(k.getBytes(StandardCharsets.UTF_8)) == partition) {
        return k;
      }
    }
  }

  @Test
  void aKeyGoesOnlyToTheTargetThatLeadsItsPartition() {
    final PartitionLeaders.Routes r = PartitionLeaders.Routes.of(3, List.of(new int[] {1}, new int[] {0},
        new int[] {2}), p -> true);
    for (int p = 0; p < 3; p++) {
      for (int t = 0; t < 3; t++) {
        assertThat(r.sends(t, keyOf(p))).as("target %d, partition %d", t, p).isEqualTo(r.leaderOf(p) == t);
      }
    }
    assertThat(r.leaderOf(0)).isEqualTo(1);
  }

  @Test
  void aPartitionWithoutALeaderAmongTheTargetsGoesEverywhereAndATargetLeadingNothingSendsEverything() {
    // target 2 did not answer (killed): partition 2's keys go through any node, which proxies them
    final PartitionLeaders.Routes r = PartitionLeaders.Routes.of(3, List.of(new int[] {0, 1}, new int[] {},
        new int[] {}), p -> true);
    assertThat(r.leaderOf(2)).isEqualTo(-1);
    assertThat(r.sends(0, keyOf(2))).isTrue();
    assertThat(r.sends(0, keyOf(1))).isTrue();
    assertThat(r.sends(1, keyOf(0))).as("target 1 leads nothing: it keeps sending, the node proxies").isTrue();
  }

  @Test
  void aLoadOfOnePartitionSendsItThroughTargetsThatLeadOnlyOthers() {
    // --partition 1: target 0 leads only partition 0, so it still sends partition 1's keys (a filter that
    // accepted none of them would never draw a key)
    final PartitionLeaders.Routes r = PartitionLeaders.Routes.of(3, List.of(new int[] {0}, new int[] {1},
        new int[] {2}), p -> p == 1);
    assertThat(r.sends(0, keyOf(1))).isTrue();
    assertThat(r.sends(1, keyOf(1))).isTrue();
  }

  @Test
  void theRepliesAreParsedAndAMalformedOneIsRefused() throws IOException {
    assertThat(PartitionLeaders.readLeads(in("*3\r\n:3\r\n:0\r\n:2\r\n"))).containsExactly(3, 0, 2);
    Assertions.assertThatThrownBy(() -> PartitionLeaders.readLeads(in("-ERR unknown command\r\n")))
        .isInstanceOf(IOException.class).hasMessageContaining("ERR unknown command");
    Assertions.assertThatThrownBy(() -> PartitionLeaders.readLeads(in("*0\r\n")))
        .isInstanceOf(IOException.class).hasMessageContaining("array of 0");
    Assertions.assertThatThrownBy(() -> PartitionLeaders.Routes.of(3, List.of(new int[] {3}), p -> true))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("partition 3 of 3");
  }

  private static ByteArrayInputStream in(String s) {
    return new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII));
  }
}
