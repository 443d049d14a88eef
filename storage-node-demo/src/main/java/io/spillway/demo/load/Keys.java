package io.spillway.demo.load;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/** The load's keys: {@code key:<n>} for n uniform in the key space, drawn again until a caller's filter accepts one. */
final class Keys {
  private Keys() {
  }

  /**
   * A uniform key of {@code key:0} to {@code key:<keySpace - 1>} that {@code accept} takes (e.g. the keys of one
   * partition: about as many draws as there are partitions).
   */
  static String uniform(int keySpace, Predicate<String> accept) {
    final ThreadLocalRandom r = ThreadLocalRandom.current();
    String key = "key:" + r.nextInt(keySpace);
    while (!accept.test(key)) {
      key = "key:" + r.nextInt(keySpace);
    }
    return key;
  }
}
