// Command genlist writes a synthetic Resource List for benchmarks: n
// entries, each with loc, lastmod and an rs:md with md5 and sha-256 hashes,
// length and type. 50,000 entries make about 12 MB.
//
//	go run ./bench/genlist -n 50000 -o bench/out/resourcelist-50k.xml
package main

import (
	"bufio"
	"crypto/md5"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
)

func main() {
	n := flag.Int("n", 50000, "number of entries")
	out := flag.String("o", "-", "output file (- for stdout)")
	flag.Parse()
	var w io.Writer = os.Stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := write(bw, *n); err != nil {
		log.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		log.Fatal(err)
	}
}

func write(w *bufio.Writer, n int) error {
	fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="http://example.com/dataset1/capabilitylist.xml"/>
  <rs:md capability="resourcelist" at="2013-01-03T09:00:00Z" completed="2013-01-03T09:01:00Z"/>
`)
	types := []string{"text/html", "application/pdf", "image/png", "application/xml"}
	for i := 0; i < n; i++ {
		body := fmt.Sprintf("resource %d", i)
		m := md5.Sum([]byte(body))
		s := sha256.Sum256([]byte(body))
		fmt.Fprintf(w, `  <url>
    <loc>http://example.com/res/%d</loc>
    <lastmod>2013-01-02T%02d:%02d:%02dZ</lastmod>
    <rs:md hash="md5:%x sha-256:%x" length="%d" type="%s"/>
  </url>
`, i, (i/3600)%24, (i/60)%60, i%60, m, s, 1000+i*7%100000, types[i%len(types)])
	}
	_, err := fmt.Fprint(w, "</urlset>\n")
	return err
}
