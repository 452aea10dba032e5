#!/usr/bin/perl
# An SMSC built on Net::SMPP (Debian's libnet-smpp-perl): a peer independent of our simulator and
# of the `smpp` npm package, for the conformance test (issue 16). It binds any transceiver,
# answers submit_sm with 8-digit hexadecimal ids and sends each receipt with the id in decimal
# (10 digits, leading zeros) in the text only, no receipted_message_id TLV, esm_class 0x04.
# Prints one JSON line per event on stdout: the port, each bind and each submit as read.
# With 'mo' (issue 46), after each bind it also sends replies as mobile-originated deliver_sm
# (esm_class 0): one UCS-2 with an emoji, one GSM-7, one in two parts with SAR TLVs; each is sent
# again (up to 3 times) while its deliver_sm_resp is an error, and each answer is printed.
#   perl simulators/perl/smsc.pl [port] [mo]
use strict;
use warnings;
use Encode qw(encode);
use Net::SMPP;

$| = 1;
my $port = shift // 0;
my $mo = (shift // '') eq 'mo';
my $srv = Net::SMPP->new_listen('127.0.0.1', port => $port, smpp_version => 0x34, async => 1)
  or die "listen: $!";
print qq({"evento":"escuchando","puerto":), $srv->sockport, "}\n";

my $n = 0xa0;
my %enviados;
my $q = sub { my $t = shift // ''; $t =~ s/(["\\])/\\$1/g; $t =~ s/[^\x20-\x7e]/?/g; qq("$t") };
while (my $c = $srv->accept) {
  while (my $pdu = $c->read_pdu) {
    my $cmd = $pdu->{cmd};
    if ($cmd == Net::SMPP::CMD_bind_transceiver) {
      printf qq({"evento":"bind","system_id":%s,"system_type":%s,"interface_version":%d}\n),
        $q->($pdu->{system_id}), $q->($pdu->{system_type}), $pdu->{interface_version};
      $c->bind_transceiver_resp(seq => $pdu->{seq}, system_id => 'perl-smsc');
      if ($mo) {
        my %base = (source_addr_ton => 1, source_addr_npi => 1, source_addr => '525512345678',
          destination_addr => 'PREGON', esm_class => 0x00);
        my @mos = (
          { %base, data_coding => 8, short_message => encode('UTF-16BE', "S\x{ed} \x{1F44D} 1") },
          { %base, data_coding => 0, short_message => 'ALTA 2' },
          { %base, data_coding => 0, short_message => 'parte uno ',
            sar_msg_ref_num => pack('n', 0x1234), sar_total_segments => pack('C', 2),
            sar_segment_seqnum => pack('C', 1) },
          { %base, data_coding => 0, short_message => 'parte dos',
            sar_msg_ref_num => pack('n', 0x1234), sar_total_segments => pack('C', 2),
            sar_segment_seqnum => pack('C', 2) },
        );
        for my $m (@mos) {
          my $seq = $c->deliver_sm(%$m);
          $enviados{$seq} = { mo => $m, intentos => 1 };
        }
      }
    } elsif ($cmd == Net::SMPP::CMD_deliver_sm_resp) {
      my $e = delete $enviados{$pdu->{seq}} or next;    # a receipt's answer
      printf qq({"evento":"mo_resp","estado":%d}\n), $pdu->{status};
      if ($pdu->{status} != 0 && $e->{intentos} < 3) {
        my $seq = $c->deliver_sm(%{$e->{mo}});
        $enviados{$seq} = { mo => $e->{mo}, intentos => $e->{intentos} + 1 };
      }
    } elsif ($cmd == Net::SMPP::CMD_submit_sm) {
      my $id = sprintf('%08X', $n);
      printf
        qq({"evento":"submit","id":"%s","source_addr":%s,"source_addr_ton":%d,"source_addr_npi":%d,"destination_addr":%s,"dest_addr_ton":%d,"dest_addr_npi":%d,"registered_delivery":%d}\n),
        $id, $q->($pdu->{source_addr}), $pdu->{source_addr_ton}, $pdu->{source_addr_npi},
        $q->($pdu->{destination_addr}), $pdu->{dest_addr_ton}, $pdu->{dest_addr_npi},
        $pdu->{registered_delivery};
      $c->submit_sm_resp(seq => $pdu->{seq}, message_id => $id);
      if ($pdu->{registered_delivery}) {
        $c->deliver_sm(
          source_addr_ton  => $pdu->{dest_addr_ton},
          source_addr_npi  => $pdu->{dest_addr_npi},
          source_addr      => $pdu->{destination_addr},
          destination_addr => $pdu->{source_addr},
          esm_class        => 0x04,
          short_message    => sprintf(
            'id:%010d sub:001 dlvrd:001 submit date:2611230000 done date:2611230000 stat:DELIVRD err:000 text:',
            $n),
        );
      }
      $n++;
    } elsif ($cmd == Net::SMPP::CMD_enquire_link) {
      $c->enquire_link_resp(seq => $pdu->{seq});
    } elsif ($cmd == Net::SMPP::CMD_unbind) {
      $c->unbind_resp(seq => $pdu->{seq});
      last;
    }
  }
  $c->close;
}
