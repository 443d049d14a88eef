package io.spillway.demo.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.Tier;
import io.spillway.demo.admission.NodeAdmission;
import io.spillway.demo.resp.RespCommand;
import io.spillway.demo.resp.RespReply;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which client a connection's requests belong to: its name, else a client of its own. */
class SessionTest {
  private final SessionCommands commands = new SessionCommands(FixedNodeView.of(""), "test");

  @Test
  void anUnnamedConnectionIsAClientOfItsOwn() throws Exception {
    final InetAddress host = InetAddress.getByName("10.1.2.3");
    assertThat(NodeAdmission.unnamedClientId(new InetSocketAddress(host, 54321), 1)).isEqualTo("conn-10.1.2.3:54321");
    assertThat(NodeAdmission.unnamedClientId(new InetSocketAddress(host, 40000), 2)).isEqualTo("conn-10.1.2.3:40000");
    assertThat(NodeAdmission.unnamedClientId(new InetSocketAddress(InetAddress.getByName("::1"), 6379), 3))
        .isEqualTo("conn-0:0:0:0:0:0:0:1:6379");
    assertThat(NodeAdmission.unnamedClientId(InetSocketAddress.createUnresolved("client.example", 1), 4))
        .isEqualTo("conn-client.example:1");
    assertThat(NodeAdmission.unnamedClientId(null, 5)).isEqualTo("conn-#5");
    assertThat(NodeAdmission.unnamedClientId(null, 6)).as("two unknown addresses are two clients").isEqualTo("conn-#6");
  }

  @Test
  void aNameReplacesTheHostClientAndAnEmptyNameRestoresIt() {
    final Session session = new Session(7, Tier.T3, "conn-10.1.2.3");
    assertThat(session.clientId()).isEqualTo("conn-10.1.2.3");
    assertThat(commands.execute(RespCommand.of("CLIENT", "GETNAME"), session)).isEqualTo(RespReply.NULL_BULK);

    assertThat(commands.execute(RespCommand.of("CLIENT", "SETNAME", "billing"), session)).isEqualTo(RespReply.OK);
    assertThat(session.clientId()).isEqualTo("billing");
    assertThat(commands.execute(RespCommand.of("CLIENT", "GETNAME"), session))
        .satisfies(r -> assertThat(text(r)).isEqualTo("billing"));

    assertThat(commands.execute(RespCommand.of("CLIENT", "SETNAME", ""), session)).isEqualTo(RespReply.OK);
    assertThat(session.clientId()).isEqualTo("conn-10.1.2.3");
    assertThat(commands.execute(RespCommand.of("CLIENT", "GETNAME"), session)).isEqualTo(RespReply.NULL_BULK);
  }

  @Test
  void aConnectionNamedDefaultIsTheClientNamedDefault() {
    final Session session = new Session(8, Tier.T3, "conn-10.1.2.3");
    commands.execute(RespCommand.of("HELLO", "2", "SETNAME", "default"), session);
    assertThat(session.clientId()).isEqualTo("default");
    assertThat(commands.execute(RespCommand.of("CLIENT", "GETNAME"), session))
        .satisfies(r -> assertThat(text(r)).isEqualTo("default"));
  }

  @Test
  void aCallerTimeoutIsWholeMillisecondsAndABadOneIsRefusedNamingItsValue() {
    final Session session = new Session(9, Tier.T3, "conn-10.1.2.3");
    assertThat(commands.execute(RespCommand.of("SPILLWAY.TIMEOUT", "750"), session)).isEqualTo(RespReply.OK);
    assertThat(session.timeoutNanos).isEqualTo(750_000_000L);
    for (String bad : new String[] {"abc", "-1", "1.5", "3600001", ""}) {
      assertThat(commands.execute(RespCommand.of("SPILLWAY.TIMEOUT", bad), session))
          .isEqualTo(RespReply.err("SPILLWAY.TIMEOUT takes whole milliseconds in [0, 3600000] (0: the node's request "
              + "timeout), was '" + bad + "'"));
    }
    assertThat(session.timeoutNanos).as("a refused value changes nothing").isEqualTo(750_000_000L);
    assertThat(commands.execute(RespCommand.of("SPILLWAY.TIMEOUT"), session))
        .isEqualTo(RespReply.err("wrong number of arguments for 'spillway.timeout' command"));
    assertThat(commands.execute(RespCommand.of("SPILLWAY.TIMEOUT", "0"), session)).isEqualTo(RespReply.OK);
    assertThat(session.timeoutNanos).isZero();
  }

  private static String text(RespReply reply) {
    return new String(((RespReply.Bulk) reply).bytes(), StandardCharsets.UTF_8);
  }

  @Test
  void leadsAnswersThePartitionCountThenThePartitionsTheNodeLeads() {
    final SessionCommands withLeads = new SessionCommands(new FixedNodeView("", 3, java.util.List.of(0, 2)), "test");
    final Session session = new Session(10, Tier.T3, "conn-10.1.2.3");
    assertThat(withLeads.execute(RespCommand.of("SPILLWAY.LEADS"), session)).isEqualTo(new RespReply.Array(
        java.util.List.of(new RespReply.Int(3), new RespReply.Int(0), new RespReply.Int(2))));
    assertThat(withLeads.execute(RespCommand.of("SPILLWAY.LEADS", "x"), session))
        .isEqualTo(RespReply.err("wrong number of arguments for 'spillway.leads' command"));
  }
}
