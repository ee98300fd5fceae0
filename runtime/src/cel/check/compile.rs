//! Rule compilation (apiextensions compilation.go).
