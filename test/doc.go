// Package test holds Stela's black-box, cross-package tests: golden dumps of
// the built-in examples at every stage (golden), StableHLO files that check
// themselves (check), Stela against XLA's CPU compiler (xla), the benchmark
// harness (bench), and the documentation's Go blocks run as an outside
// module would run them (docs).
// Unit tests live beside their packages.
package test
