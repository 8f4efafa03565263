//! mA* read and translated: see the tests below.
