#!/usr/bin/env bash
# Platforms SimGrid aborts on or computes nonsense with (issue 20): each case edits a bundled platform as a what-if
# study would, and expects exit 2 with the file, line, element, attribute and what is accepted, and no prediction.
# Usage: run.sh BUILD_DIR CASE
set -u
build=$1
case_name=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$build/bin/tit-replay
e2e=$root/tests/e2e/data
. "$(dirname "$0")/../lib/case.sh"

# edit SOURCE SED-EXPRESSION: writes $tmp/p.xml, checks that the edit changed something
edit() { sed -e "$2" "$1" > "$tmp/p.xml"; ! cmp -s "$1" "$tmp/p.xml" || { echo "the edit '$2' changed nothing"; exit 1; }; }
hetero() { # replay traces/ring4 on the edited small-hetero platform
  "$bin" "${extra[@]}" "$tmp/p.xml" "$root/platforms/small-hetero.deploy4.xml" "$root/traces/ring4" >"$out" 2>"$err"
  status=$?
}
cluster() { # replay the 4-rank barrier on the edited cluster4 platform
  "$bin" "${extra[@]}" --hostfile "$e2e/cluster4.hosts" "$tmp/p.xml" "$e2e/bcast4" >"$out" 2>"$err"
  status=$?
}
H=$root/platforms/small-hetero.xml
C=$e2e/cluster4.xml

case $case_name in
  # ---- the rows of issue 20's table
  bandwidth-zero) edit "$H" 's/id="wan" bandwidth="20MBps"/id="wan" bandwidth="0Bps"/'; hetero
    expect_error 2 "p.xml:27: error: <link id=\"wan\"> bandwidth=\"0Bps\": a bandwidth of 0 stops SimGrid's engine; expected a number > 0" "MBps" ;;
  speed-zero) edit "$H" 's/id="boreas" speed="1Gf"/id="boreas" speed="0f"/'; hetero
    expect_error 2 "p.xml:15: error: <host id=\"boreas\"> speed=\"0f\": a speed of 0 stops SimGrid's engine; expected a number > 0" "Gf" ;;
  speed-negative) edit "$H" 's/id="boreas" speed="1Gf"/id="boreas" speed="-1Gf"/'; hetero
    expect_error 2 "p.xml:15: error: <host id=\"boreas\"> speed=\"-1Gf\": a speed cannot be negative" ;;
  bandwidth-negative) edit "$H" 's/id="nic-atlas"  bandwidth="1.25GBps"/id="nic-atlas"  bandwidth="-5MBps"/'; hetero
    expect_error 2 "p.xml:20: error: <link id=\"nic-atlas\"> bandwidth=\"-5MBps\": a bandwidth cannot be negative; expected a number > 0" ;;
  latency-negative) edit "$H" 's/id="wan" bandwidth="20MBps" latency="1.75ms"/id="wan" bandwidth="20MBps" latency="-1s"/'; hetero
    expect_error 2 "p.xml:27: error: <link id=\"wan\"> latency=\"-1s\": a latency cannot be negative; expected a number >= 0" ;;
  no-route) # the Full zone loses its atlas-dorado route; atlas is rank 0, dorado rank 1
    edit "$H" '/<route src="atlas" dst="dorado">/,/<\/route>/d'; hetero
    expect_error 2 "p.xml: error: no route from host 'atlas' (rank 0) to host 'dorado' (rank 1) of $root/platforms/small-hetero.deploy4.xml" ;;
  no-route-one-way) # a route declared in one direction only
    edit "$H" 's/<route src="atlas" dst="dorado">/<route src="atlas" dst="dorado" symmetrical="NO">/'; hetero
    expect_error 2 "no route from host 'dorado' (rank 1) to host 'atlas' (rank 0)" ;;
  core-zero) edit "$C" 's/speed="1f"/speed="1f" core="0"/'; cluster
    expect_error 2 "p.xml:6: error: <cluster id=\"c\"> core=\"0\": must be at least 1; expected a whole number of cores >= 1" ;;
  radical-empty) edit "$C" 's/radical="0-3"/radical="5-2"/'; cluster
    expect_error 2 "<cluster id=\"c\"> radical=\"5-2\": the range '5-2' is empty: it names no host" ;;
  # ---- each class of value checked
  unknown-unit) edit "$H" 's/bandwidth="125MBps"/bandwidth="125KBps"/'; hetero
    expect_error 2 "<link id=\"nic-boreas\"> bandwidth=\"125KBps\": not a bandwidth: unknown unit 'KBps'" "KiBps" ;;
  not-a-number) edit "$H" 's/latency="45us"/latency="fast"/'; hetero
    expect_error 2 "<link id=\"nic-boreas\"> latency=\"fast\": not a latency: no number" ;;
  not-finite) edit "$H" 's/speed="450Mf"/speed="nanf"/'; hetero
    expect_error 2 "<host id=\"cirrus\"> speed=\"nanf\": not a speed: not a finite number" ;;
  pstate) edit "$H" 's/speed="800Mf"/speed="800Mf,400Mf" pstate="2"/'; hetero
    expect_error 2 "<host id=\"eris\"> pstate=\"2\": no such power state (the speed lists 2); expected an index from 0 to 1" ;;
  backbone-negative) edit "$C" 's/bb_bw="1e12Bps"/bb_bw="-1e12Bps"/'; cluster
    expect_error 2 "<cluster id=\"c\"> bb_bw=\"-1e12Bps\": a bandwidth cannot be negative" ;;
  backbone-no-bandwidth) edit "$C" 's/bb_bw="1e12Bps" bb_lat="0s"/bb_lat="1ms"/'; cluster
    expect_error 2 "<cluster id=\"c\"> bb_bw=\"\": a backbone with a latency needs a bandwidth" ;;
  limiter-negative) edit "$C" 's/speed="1f"/speed="1f" limiter_link="-1MBps"/'; cluster
    expect_error 2 "<cluster id=\"c\"> limiter_link=\"-1MBps\": a bandwidth cannot be negative" ;;
  loopback-no-bandwidth) edit "$C" 's/speed="1f"/speed="1f" loopback_lat="1us"/'; cluster
    expect_error 2 "<cluster id=\"c\"> loopback_bw=\"\": a loopback with a latency needs a bandwidth" ;;
  loopback-negative) edit "$C" 's/speed="1f"/speed="1f" loopback_bw="1GBps" loopback_lat="-1us"/'; cluster
    expect_error 2 "<cluster id=\"c\"> loopback_lat=\"-1us\": a latency cannot be negative" ;;
  topology-size) edit "$C" 's/speed="1f"/speed="1f" topology="TORUS" topo_parameters="2,3"/'; cluster
    expect_error 2 "<cluster id=\"c\"> topo_parameters=\"2,3\": the topology has 6 nodes but the radical names 4 hosts" ;;
  topology-syntax) edit "$C" 's/speed="1f"/speed="1f" topology="DRAGONFLY" topo_parameters="2,2;2"/'; cluster
    expect_error 2 "<cluster id=\"c\"> topo_parameters=\"2,2;2\": 2 parts separated by ';' instead of 4; expected GROUPS,BLUE_LINKS" ;;
  fat-tree-levels) edit "$C" 's/speed="1f"/speed="1f" topology="FAT_TREE" topo_parameters="2;4,1;1;1,1"/'; cluster
    expect_error 2 "<cluster id=\"c\"> topo_parameters=\"2;4,1;1;1,1\": '1' has 1 values instead of 2" ;;
  unknown-link) edit "$H" 's/<link_ctn id="dorado-local"\/>/<link_ctn id="dorado-lokal"\/>/'; hetero
    expect_error 2 "p.xml:30: error: <link_ctn id=\"dorado-lokal\"> id=\"dorado-lokal\": no link of that name is declared before" ;;
  unknown-host) edit "$H" 's/<route src="atlas" dst="boreas">/<route src="atlas" dst="borreas">/'; hetero
    expect_error 2 "<route src=\"atlas\" dst=\"borreas\"> dst=\"borreas\": no host, router or zone of that name is declared before" ;;
  unknown-routing) edit "$H" 's/routing="Full"/routing="Fulll"/'; hetero
    expect_error 2 "p.xml:13: error: <zone id=\"hetero\"> routing=\"Fulll\": unknown routing; expected one of Full" ;;
  duplicate-route) edit "$H" 's/<route src="dorado" dst="eris">/<route src="eris" dst="dorado"><link_ctn id="swB"\/><\/route><route src="dorado" dst="eris">/'; hetero
    expect_error 2 "a route from 'dorado' to 'eris' is already declared in zone 'hetero'" ;;
  duplicate-name) edit "$H" 's/id="cirrus"/id="boreas"/'; hetero
    expect_error 2 "<host id=\"boreas\">: the name 'boreas' is already used by another host, router or zone" ;;
  actor-in-platform) edit "$H" 's/<\/zone>/<\/zone><actor host="atlas" function="0"\/>/'; hetero
    expect_error 2 "<actor>: actors belong in the deployment file" ;;
  version) edit "$H" 's/version="4.1"/version="5"/'; hetero
    expect_error 2 "<platform> version=\"5\": SimGrid 3.32 reads platform files of version 4 or 4.1" ;;
  bad-xml) edit "$H" 's/<\/zone>//'; hetero
    expect_error 2 "p.xml:" "error: bad XML" ;;
  valid) # every bundled and test platform loads unchanged (the differential tests replay on them)
    for p in "$root"/platforms/*.xml "$root"/tests/*/data/*.xml; do
      case $p in *deploy*|*/broken.xml) continue ;; esac
      hosts=${p%.xml}.hosts
      [ -f "$hosts" ] || continue
      "$bin" "${extra[@]}" --hostfile "$hosts" --np 4 "$p" "$root/traces/ring4" >"$out" 2>"$err"
      [ $? -eq 0 ] || fail "$p does not load"
    done ;;
  *) echo "unknown case $case_name"; exit 2 ;;
esac
echo "PASS [$case_name]"
