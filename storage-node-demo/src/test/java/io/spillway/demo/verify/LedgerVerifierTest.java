package io.spillway.demo.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The verifier against a scripted RESP server: a missing key is lost, a different value changed, a {@code -BUSY}
 * answer retried, a key that never reads back within the deadline unreadable.
 */
@Timeout(30)
class LedgerVerifierTest {

  /** Serves GET from {@code store}; a key in {@code busyTimes} answers -BUSY that many times first. */
  private static ServerSocket serve(Map<String, String> store, Map<String, AtomicInteger> busyTimes)
      throws Exception {
    ServerSocket server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    Thread t = new Thread(() -> {
      while (!server.isClosed()) {
        try (Socket s = server.accept()) {
          BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
          OutputStream out = s.getOutputStream();
          String line;
          while ((line = in.readLine()) != null) {
            in.readLine(); // $3
            in.readLine(); // GET
            in.readLine(); // $n
            String key = in.readLine();
            AtomicInteger busy = busyTimes.get(key);
            String reply;
            if (busy != null && busy.getAndDecrement() > 0) {
              reply = "-BUSY SHED_TIER retry_after_ms=5\r\n";
            } else if (store.containsKey(key)) {
              String v = store.get(key);
              reply = "$" + v.length() + "\r\n" + v + "\r\n";
            } else {
              reply = "$-1\r\n";
            }
            out.write(reply.getBytes(StandardCharsets.UTF_8));
            out.flush();
          }
        } catch (Exception e) {
          // connection over
        }
      }
    }, "fake-resp");
    t.setDaemon(true);
    t.start();
    return server;
  }

  @Test
  void lostChangedAndRetriedKeysAreTold() throws Exception {
    Map<String, String> acked = new LinkedHashMap<>();
    for (int i = 0; i < 600; i++) {
      acked.put("w:k" + i, "v" + i);
    }
    Map<String, String> store = new LinkedHashMap<>(acked);
    store.remove("w:k7");
    store.put("w:k300", "other");
    try (ServerSocket server = serve(store, Map.of("w:k5", new AtomicInteger(2)))) {
      LedgerVerifier.Result r = LedgerVerifier.check((InetSocketAddress) server.getLocalSocketAddress(), acked,
          10_000);
      assertThat(r.checked()).isEqualTo(600);
      assertThat(r.lost()).isEqualTo(1);
      assertThat(r.changed()).isEqualTo(1);
      assertThat(r.unreadable()).isZero();
      assertThat(r.ok()).isFalse();
      assertThat(r.examples()).contains("lost w:k7", "changed w:k300: acked v300, read other");
    }
  }

  @Test
  void aKeyThatStaysBusyPastTheDeadlineIsUnreadable() throws Exception {
    Map<String, String> acked = Map.of("w:k1", "v1");
    try (ServerSocket server = serve(acked, Map.of("w:k1", new AtomicInteger(1_000_000)))) {
      LedgerVerifier.Result r = LedgerVerifier.check((InetSocketAddress) server.getLocalSocketAddress(), acked,
          1_000);
      assertThat(r.unreadable()).isEqualTo(1);
      assertThat(r.ok()).isFalse();
    }
  }

  @Test
  void everyKeyBackIsOk() throws Exception {
    Map<String, String> acked = Map.of("w:k1", "v1", "w:k2", "v2");
    try (ServerSocket server = serve(acked, Map.of())) {
      assertThat(LedgerVerifier.check((InetSocketAddress) server.getLocalSocketAddress(), acked, 5_000).ok())
          .isTrue();
    }
  }
}
