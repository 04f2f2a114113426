package explorertest

import (
	"bufio"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A Large is a generated Source: a Source Description, a Capability List
// and a Resource List Index of lists of at most 50,000 resources each,
// generated on the fly by the handler (nothing is kept in memory), and
// the resources themselves, so that the explorer's memory and speed can be
// measured on a Source of any size.
type Large struct {
	*httptest.Server
	// WellKnown is the URL of the Source Description.
	WellKnown string
	// Resources is the number of resources.
	Resources int
}

// PerList is the number of resources per Resource List of a Large Source.
const PerList = 50_000

// NewLarge starts a generated Source of n resources, closed when the test
// or benchmark ends.
func NewLarge(t testing.TB, n int) *Large {
	l := StartLarge(n)
	t.Cleanup(l.Close)
	return l
}

// StartLarge starts a generated Source of n resources; the caller closes it.
func StartLarge(n int) *Large {
	l := &Large{Resources: n}
	l.Server = httptest.NewServer(http.HandlerFunc(l.serve))
	l.WellKnown = l.URL + "/.well-known/resourcesync"
	return l
}

var snapshot = time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)

func resourceBody(i int) []byte {
	return []byte("Generated resource number " + strconv.Itoa(i) + ".\n")
}

func (l *Large) serve(w http.ResponseWriter, r *http.Request) {
	b := l.URL
	p := r.URL.Path
	bw := bufio.NewWriterSize(w, 64<<10)
	defer bw.Flush()
	xml := func() {
		w.Header().Set("Content-Type", "application/xml")
		bw.WriteString(head)
	}
	switch {
	case p == "/.well-known/resourcesync":
		xml()
		fmt.Fprintf(bw, "%s  <rs:md capability=\"description\"/>\n  <url><loc>%s/big/capabilitylist.xml</loc><rs:md capability=\"capabilitylist\"/></url>\n</urlset>\n", urlset, b)
	case p == "/big/capabilitylist.xml":
		xml()
		fmt.Fprintf(bw, "%s  <rs:ln rel=\"up\" href=\"%s/.well-known/resourcesync\"/>\n  <rs:md capability=\"capabilitylist\"/>\n  <url><loc>%s/big/resourcelist-index.xml</loc><rs:md capability=\"resourcelist\"/></url>\n</urlset>\n", urlset, b, b)
	case p == "/big/resourcelist-index.xml":
		xml()
		fmt.Fprintf(bw, "%s  <rs:ln rel=\"up\" href=\"%s/big/capabilitylist.xml\"/>\n  <rs:md capability=\"resourcelist\" at=\"%s\"/>\n", sitemapindex, b, w3c(snapshot))
		for k := 0; k*PerList < l.Resources; k++ {
			fmt.Fprintf(bw, "  <sitemap><loc>%s/big/resourcelist-%d.xml</loc><rs:md at=\"%s\"/></sitemap>\n", b, k+1, w3c(snapshot))
		}
		bw.WriteString("</sitemapindex>\n")
	case strings.HasPrefix(p, "/big/resourcelist-"):
		k, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(p, "/big/resourcelist-"), ".xml"))
		if err != nil || k < 1 || (k-1)*PerList >= l.Resources {
			http.NotFound(w, r)
			return
		}
		xml()
		fmt.Fprintf(bw, "%s  <rs:ln rel=\"up\" href=\"%s/big/capabilitylist.xml\"/>\n  <rs:ln rel=\"index\" href=\"%s/big/resourcelist-index.xml\"/>\n  <rs:md capability=\"resourcelist\" at=\"%s\"/>\n", urlset, b, b, w3c(snapshot))
		for i := (k - 1) * PerList; i < k*PerList && i < l.Resources; i++ {
			body := resourceBody(i)
			sum := md5.Sum(body)
			fmt.Fprintf(bw, "  <url><loc>%s/big/res/%d</loc><lastmod>2024-01-01T00:00:00Z</lastmod><rs:md hash=\"md5:%s\" length=\"%d\" type=\"text/plain\"/></url>\n",
				b, i, hex.EncodeToString(sum[:]), len(body))
		}
		bw.WriteString("</urlset>\n")
	case strings.HasPrefix(p, "/big/res/"):
		i, err := strconv.Atoi(strings.TrimPrefix(p, "/big/res/"))
		if err != nil || i < 0 || i >= l.Resources {
			http.NotFound(w, r)
			return
		}
		body := resourceBody(i)
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Header().Set("Last-Modified", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Format(http.TimeFormat))
		bw.Write(body)
	default:
		http.NotFound(w, r)
	}
}
