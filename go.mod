module github.com/rscheck/rscheck

go 1.26.8

require (
	github.com/antchfx/xmlquery v1.5.2
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/hack-pad/safejs v0.1.0
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/terminalstatic/go-xsd-validate v0.1.8
	golang.org/x/net v0.62.0
)

require (
	github.com/antchfx/xpath v1.3.9 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/golang/groupcache v0.0.0-20210331224755-41bb18bfe9da // indirect
	golang.org/x/text v0.43.0 // indirect
)
