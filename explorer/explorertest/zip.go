package explorertest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"io"
)

// A File is one file of a ZIP built by Zip.
type File struct {
	Name string
	Data []byte
	// Declared, if non-zero, is the uncompressed size written in the ZIP
	// headers instead of len(Data): a lie, to build ZIP bombs.
	Declared uint64
}

// Zip builds a ZIP file in memory. Names are written as given, so that
// tests can build packages with "../evil", absolute names or duplicates.
func Zip(files ...File) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		if f.Declared == 0 {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate})
			if err != nil {
				panic(err)
			}
			w.Write(f.Data)
			continue
		}
		var comp bytes.Buffer
		fw, _ := flate.NewWriter(&comp, flate.BestCompression)
		fw.Write(f.Data)
		fw.Close()
		w, err := zw.CreateRaw(&zip.FileHeader{
			Name: f.Name, Method: zip.Deflate,
			CRC32:              crc32.ChecksumIEEE(f.Data),
			CompressedSize64:   uint64(comp.Len()),
			UncompressedSize64: f.Declared,
		})
		if err != nil {
			panic(err)
		}
		io.Copy(w, &comp)
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// MD5 and SHA256 return hex digests, as hash attributes give them.
func MD5(b []byte) string {
	s := md5.Sum(b)
	return hex.EncodeToString(s[:])
}

// SHA256 returns the hex SHA-256 digest of b.
func SHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Hash returns a hash attribute value with the md5 and sha-256 digests of b.
func Hash(b []byte) string { return "md5:" + MD5(b) + " sha-256:" + SHA256(b) }
