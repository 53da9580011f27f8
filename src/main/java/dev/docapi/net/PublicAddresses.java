package dev.docapi.net;

import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
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
            // ::/96 and ::ffff:0:0/96 hold every IPv4 address in IPv6 form (compatible, mapped), ::ffff:0:0:0/96 (SIIT) too
            "::/96", "::ffff:0:0/96", "::ffff:0:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001::/32",
            "2001:db8::/32", "2002::/16", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8"
    ).stream().map(s -> new IPAddressString(s).getAddress()).toList();

    private PublicAddresses() {
    }

    public static boolean isPublic(InetAddress address) {
        IPAddress ip = new IPAddressString(address.getHostAddress()).getAddress();
        if (ip == null) return false;
        for (IPAddress range : BLOCKED) {
            if (range.getIPVersion() == ip.getIPVersion() && range.contains(ip)) return false;
        }
        return true;
    }
}
