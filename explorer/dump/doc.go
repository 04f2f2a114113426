// Package dump checks ResourceSync dump packages: the ZIP files that
// Resource Dumps and Change Dumps point to (§11, §13), without HTTP, so
// that the explorer, the command line and the browser check a package the
// same way, whether it was downloaded or dropped by the user.
//
// Check reads a package from an io.ReaderAt (memory or a temporary file;
// nothing is ever extracted to disk). It finds manifest.xml at the top
// level, validates it with validator.Validate, and checks every bitstream
// the Manifest describes: the file exists, its length and its digests
// (md5, sha-1, sha-224, sha-256, sha-384, sha-512) equal the Manifest's.
// It also reports files the Manifest does not list, unsafe names ("../",
// absolute paths, backslashes, drive letters), duplicate names, corrupt
// ZIPs, and protects itself against ZIP bombs: the number of files and the
// decompressed bytes are capped, and no file is read past its declared
// size.
//
// A Fingerprint summarises a Manifest so that the copy a dump's contents
// link points to can be compared with the packaged one (Diff).
//
// The rules are exported values (Rules); their findings carry the rule
// IDs RD101–RD114. The rules about a dump's entry (RD107, RD108, RD109,
// RD114) concern the dump document and are reported by the explorer.
package dump
