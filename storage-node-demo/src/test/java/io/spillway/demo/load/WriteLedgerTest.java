package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ledger round-trips, tolerates a torn last line and names a malformed one. */
class WriteLedgerTest {
  @TempDir
  Path dir;

  @Test
  void acknowledgedWritesReadBackInOrder() throws Exception {
    Path f = dir.resolve("a.ledger");
    try (WriteLedger l = new WriteLedger(f)) {
      l.acknowledged("w:c1:1", "1.5vv", 1000);
      l.acknowledged("w:c1:2", "2.7vv", 1001);
      assertThat(l.size()).isEqualTo(2);
    }
    assertThat(WriteLedger.read(f)).containsExactly(java.util.Map.entry("w:c1:1", "1.5vv"),
        java.util.Map.entry("w:c1:2", "2.7vv"));
  }

  @Test
  void aTornLastLineIsSkippedButAMalformedLineInTheMiddleFails() throws Exception {
    Path torn = dir.resolve("torn.ledger");
    Files.writeString(torn, "k1,v1,1\nk2,v2");
    assertThat(WriteLedger.read(torn)).containsOnlyKeys("k1");
    Path bad = dir.resolve("bad.ledger");
    Files.writeString(bad, "k1,v1,1\nbroken\nk3,v3,3\n");
    assertThatThrownBy(() -> WriteLedger.read(bad)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 2").hasMessageContaining("'broken'");
  }
}
