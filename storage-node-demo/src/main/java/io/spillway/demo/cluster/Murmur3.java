package io.spillway.demo.cluster;

/**
 * MurmurHash3, x86 32-bit variant (Austin Appleby, public domain reference {@code MurmurHash3_x86_32},
 * https://github.com/aappleby/smhasher/blob/master/src/MurmurHash3.cpp). Used to place keys into virtual shards,
 * {@code murmur3(key) & 63}, as storage fleets do (docs/storage-node-demo.md#sharding-and-replication).
 */
public final class Murmur3 {
  private static final int C1 = 0xcc9e2d51;
  private static final int C2 = 0x1b873593;

  private Murmur3() {
  }

  /** The 32-bit hash of {@code data} with seed 0. */
  public static int hash32(byte[] data) {
    return hash32(data, 0);
  }

  /** The 32-bit hash of {@code data} with the given seed. */
  public static int hash32(byte[] data, int seed) {
    int h = seed;
    final int len = data.length;
    final int blocks = len >>> 2;
    for (int i = 0; i < blocks; i++) {
      final int o = i << 2;
      int k = (data[o] & 0xff) | (data[o + 1] & 0xff) << 8 | (data[o + 2] & 0xff) << 16 | (data[o + 3] & 0xff) << 24;
      k *= C1;
      k = Integer.rotateLeft(k, 15);
      k *= C2;
      h ^= k;
      h = Integer.rotateLeft(h, 13);
      h = h * 5 + 0xe6546b64;
    }
    final int tail = blocks << 2;
    int k = 0;
    switch (len & 3) {
      case 3:
        k ^= (data[tail + 2] & 0xff) << 16;
        // fall through
      case 2:
        k ^= (data[tail + 1] & 0xff) << 8;
        // fall through
      case 1:
        k ^= data[tail] & 0xff;
        k *= C1;
        k = Integer.rotateLeft(k, 15);
        k *= C2;
        h ^= k;
        break;
      default:
        break;
    }
    h ^= len;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
