package dev.docapi.net;

import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;

/**
 * Which IP addresses count as public (DESIGN §2, SSRF): loopback, private, link-local (cloud metadata), CGNAT,
 * unique-local, multicast, reserved, documentation and IPv4-mapped/translated IPv6 ranges are refused.
 */
public final class PublicAddresses {
    private static final List<IPAddress> BLOCKED = List.of(
            "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
            "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
            "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "255.255.255.255/32",
            // forms that embed an IPv4 address (::/96, ::ffff:0:0/96, ::ffff:0:0:0/96, 64:ff9b::/96, 2002::/16) are
            // judged by that address instead (embeddedIpv4)
            "64:ff9b:1::/48", "100::/64", "2001::/32", "2001:db8::/32", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8"
    ).stream().map(s -> new IPAddressString(s).getAddress()).toList();

    private PublicAddresses() {
    }

    /** The IPv4 address an IPv6 address carries in one of the embedding forms, or null. */
    static Inet4Address embeddedIpv4(byte[] a) {
        if (a.length != 16) return null;
        int from;
        if (zero(a, 0, 12)) from = 12;                                                         // ::/96
        else if (zero(a, 0, 10) && (a[10] & 0xff) == 0xff && (a[11] & 0xff) == 0xff) from = 12; // ::ffff:0:0/96
        else if (zero(a, 0, 8) && (a[8] & 0xff) == 0xff && (a[9] & 0xff) == 0xff && zero(a, 10, 12)) from = 12; // ::ffff:0:0:0/96
        else if (a[0] == 0 && a[1] == 0x64 && (a[2] & 0xff) == 0xff && (a[3] & 0xff) == 0x9b && zero(a, 4, 12)) from = 12; // 64:ff9b::/96
        else if (a[0] == 0x20 && a[1] == 0x02) from = 2;                                         // 2002::/16
        else return null;
        try {
            return (Inet4Address) InetAddress.getByAddress(java.util.Arrays.copyOfRange(a, from, from + 4));
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e); // four bytes are always an address
        }
    }

    private static boolean zero(byte[] a, int from, int to) {
        for (int i = from; i < to; i++) if (a[i] != 0) return false;
        return true;
    }

    /**
     * True when {@code address} is public. An IPv6 address that carries an IPv4 address (IPv4-compatible {@code ::/96},
     * mapped {@code ::ffff:0:0/96}, SIIT {@code ::ffff:0:0:0/96}, NAT64 {@code 64:ff9b::/96}, 6to4 {@code 2002::/16})
     * is public exactly when that IPv4 address is (issue 10), so {@code ::127.0.0.1} or {@code 2002:7f00:1::} are not.
     */
    public static boolean isPublic(InetAddress address) {
        Inet4Address embedded = embeddedIpv4(address.getAddress());
        if (embedded != null) return isPublic(embedded);
        IPAddress ip = new IPAddressString(address.getHostAddress()).getAddress();
        if (ip == null) return false;
        for (IPAddress range : BLOCKED) {
            if (range.getIPVersion() == ip.getIPVersion() && range.contains(ip)) return false;
        }
        return true;
    }
}
