// Command compare runs commands alternately, several times each, and
// reports the median wall time and the peak resident memory of each, with
// ratios against the first (the peer), so that figures come from one run
// on one machine.
//
//	go run ./bench/compare -runs 5 -- 'xmllint --noout --schema s.xsd f.xml' 'rscheck validate f.xml'
//
// Each command is run through /bin/sh -c. Exit status 1 (findings) is
// accepted; any other failure aborts.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"
)

func main() {
	runs := flag.Int("runs", 5, "runs per command")
	names := flag.String("names", "", "comma-separated labels for the commands")
	flag.Parse()
	cmds := flag.Args()
	if len(cmds) < 1 {
		log.Fatal("usage: compare [-runs N] [-names a,b] -- CMD...")
	}
	labels := strings.Split(*names, ",")
	walls := make([][]time.Duration, len(cmds))
	peaks := make([]int64, len(cmds))
	for r := 0; r < *runs; r++ {
		for i, c := range cmds {
			wall, rss, err := run(c)
			if err != nil {
				log.Fatalf("%s: %v", c, err)
			}
			walls[i] = append(walls[i], wall)
			if rss > peaks[i] {
				peaks[i] = rss
			}
		}
	}
	base := median(walls[0])
	fmt.Printf("| command | median wall | ratio | peak RSS | ratio |\n|---|---|---|---|---|\n")
	for i, c := range cmds {
		label := c
		if i < len(labels) && labels[i] != "" {
			label = labels[i]
		}
		m := median(walls[i])
		fmt.Printf("| %s | %.3f s | %.2f× | %.1f MB | %.2f× |\n", label, m.Seconds(),
			float64(m)/float64(base), float64(peaks[i])/1024, float64(peaks[i])/float64(peaks[0]))
	}
}

// run executes c and returns its wall time and peak RSS in KiB.
func run(c string) (time.Duration, int64, error) {
	cmd := exec.Command("/bin/sh", "-c", c)
	cmd.Stdout, cmd.Stderr = nil, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	return wall, rss, err
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
