package io.spillway.demo.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionStoreTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void loadNative(@TempDir Path nativeDir) {
    RocksDbNativeLibrary.load(nativeDir);
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String s(byte[] b) {
    return b == null ? null : new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void theAppliedIndexIsPersistedWithTheDataAndSurvivesReopening() throws Exception {
    try (PartitionStore store = new PartitionStore(dir, () -> 0)) {
      assertThat(store.appliedIndex()).isZero();
      store.applySet(b("a"), b("1"), 1, 5);
      store.applySet(b("b"), b("2"), 1, 6);
      assertThat(store.applyDelete(List.of(b("a"), b("zz")), 2, 7)).isEqualTo(1);
    }
    try (PartitionStore store = new PartitionStore(dir, () -> 0)) {
      assertThat(store.appliedIndex()).isEqualTo(7);
      assertThat(store.appliedTerm()).isEqualTo(2);
      assertThat(store.get(List.of(b("a"), b("b"))).stream().map(PartitionStoreTest::s).toList())
          .containsExactly(null, "2");
    }
  }

  @Test
  void scansHonourBoundsAndLimitInBytewiseOrder() throws Exception {
    try (PartitionStore store = new PartitionStore(dir, () -> 0)) {
      long index = 1;
      for (String k : List.of("a", "b", "c", "d", "\u00ff")) {
        store.applySet(b(k), b(k.toUpperCase()), 1, index++);
      }
      assertThat(store.scan(b("b"), b("d"), 10).stream().map(kv -> s(kv.key())).toList()).containsExactly("b", "c");
      assertThat(store.scan(null, null, 3).stream().map(kv -> s(kv.key())).toList()).containsExactly("a", "b", "c");
      assertThat(store.scan(b("d"), null, 10).stream().map(kv -> s(kv.key())).toList())
          .containsExactly("d", "\u00ff");
    }
  }
}
