package io.spillway.demo.raft;

import io.spillway.demo.store.KeyValue;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

/**
 * Binary encoding of the requests carried by Raft (log entries for writes, read-only queries for reads) and of
 * their results. A request is one kind byte followed by length-prefixed byte strings; compact and versionable by
 * the kind byte.
 */
public final class KvCodec {
  static final byte SET = 1;
  static final byte DEL = 2;
  static final byte GET = 3;
  static final byte SCAN = 4;

  private KvCodec() {
  }

  /** A decoded request. */
  public sealed interface Request {
  }

  /** Write: set one key. */
  public record SetRequest(byte[] key, byte[] value) implements Request {
  }

  /** Write: delete keys. */
  public record DelRequest(List<byte[]> keys) implements Request {
  }

  /** Read: values of keys. */
  public record GetRequest(List<byte[]> keys) implements Request {
  }

  /** Read: range scan; null bounds are open. */
  public record ScanRequest(byte[] start, byte[] end, int limit) implements Request {
  }

  /** Encodes SET. */
  public static Message set(byte[] key, byte[] value) {
    return encode(SET, out -> {
      bytes(out, key);
      bytes(out, value);
    });
  }

  /** Encodes DEL. */
  public static Message del(List<byte[]> keys) {
    return encode(DEL, out -> list(out, keys));
  }

  /** Encodes GET (one or more keys). */
  public static Message get(List<byte[]> keys) {
    return encode(GET, out -> list(out, keys));
  }

  /** Encodes a range scan. */
  public static Message scan(byte[] start, byte[] end, int limit) {
    return encode(SCAN, out -> {
      nullable(out, start);
      nullable(out, end);
      out.writeInt(limit);
    });
  }

  /**
   * Decodes a request.
   *
   * @throws IllegalArgumentException if the bytes are not a request this codec wrote
   */
  public static Request decode(ByteString bytes) {
    try (DataInputStream in = new DataInputStream(bytes.newInput())) {
      final byte kind = in.readByte();
      switch (kind) {
        case SET:
          return new SetRequest(bytes(in), bytes(in));
        case DEL:
          return new DelRequest(list(in));
        case GET:
          return new GetRequest(list(in));
        case SCAN:
          return new ScanRequest(nullable(in), nullable(in), in.readInt());
        default:
          throw new IllegalArgumentException("unknown request kind " + kind);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("truncated request of " + bytes.size() + " bytes", e);
    }
  }

  /** Encodes a count result (DEL: keys that existed; SET: 1). */
  public static Message count(long n) {
    return Message.valueOf(ByteString.copyFrom(java.nio.ByteBuffer.allocate(8).putLong(0, n)));
  }

  /** Decodes a count result. */
  public static long decodeCount(ByteString bytes) {
    return bytes.asReadOnlyByteBuffer().getLong();
  }

  /** Encodes GET values, nulls for absent keys. */
  public static Message values(List<byte[]> values) {
    return encode(GET, out -> {
      out.writeInt(values.size());
      for (byte[] v : values) {
        nullable(out, v);
      }
    });
  }

  /** Decodes GET values. */
  public static List<byte[]> decodeValues(ByteString bytes) {
    try (DataInputStream in = new DataInputStream(bytes.newInput())) {
      in.readByte();
      final int n = in.readInt();
      final List<byte[]> values = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        values.add(nullable(in));
      }
      return values;
    } catch (IOException e) {
      throw new IllegalArgumentException("truncated values reply", e);
    }
  }

  /** Encodes scan results. */
  public static Message pairs(List<KeyValue> pairs) {
    return encode(SCAN, out -> {
      out.writeInt(pairs.size());
      for (KeyValue kv : pairs) {
        bytes(out, kv.key());
        bytes(out, kv.value());
      }
    });
  }

  /** Decodes scan results. */
  public static List<KeyValue> decodePairs(ByteString bytes) {
    try (DataInputStream in = new DataInputStream(bytes.newInput())) {
      in.readByte();
      final int n = in.readInt();
      final List<KeyValue> pairs = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        pairs.add(new KeyValue(bytes(in), bytes(in)));
      }
      return pairs;
    } catch (IOException e) {
      throw new IllegalArgumentException("truncated scan reply", e);
    }
  }

  private interface Body {
    void write(DataOutputStream out) throws IOException;
  }

  private static Message encode(byte kind, Body body) {
    final ByteArrayOutputStream buf = new ByteArrayOutputStream(64);
    try (DataOutputStream out = new DataOutputStream(buf)) {
      out.writeByte(kind);
      body.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Message.valueOf(ByteString.copyFrom(buf.toByteArray()));
  }

  private static void bytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b.length);
    out.write(b);
  }

  private static void nullable(DataOutputStream out, byte[] b) throws IOException {
    if (b == null) {
      out.writeInt(-1);
    } else {
      bytes(out, b);
    }
  }

  private static void list(DataOutputStream out, List<byte[]> items) throws IOException {
    out.writeInt(items.size());
    for (byte[] b : items) {
      bytes(out, b);
    }
  }

  private static byte[] bytes(DataInputStream in) throws IOException {
    final byte[] b = nullable(in);
    if (b == null) {
      throw new IOException("unexpected null byte string");
    }
    return b;
  }

  private static byte[] nullable(DataInputStream in) throws IOException {
    final int len = in.readInt();
    if (len < -1 || len > in.available()) {
      throw new IOException("bad length " + len);
    }
    if (len == -1) {
      return null;
    }
    final byte[] b = new byte[len];
    in.readFully(b);
    return b;
  }

  private static List<byte[]> list(DataInputStream in) throws IOException {
    final int n = in.readInt();
    if (n < 0 || n > in.available()) {
      throw new IOException("bad count " + n);
    }
    final List<byte[]> items = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      items.add(bytes(in));
    }
    return items;
  }
}
