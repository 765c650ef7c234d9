"""The ARM64 machine: AArch64 CPU core (cpu/) and the Linux user-mode layer (linux/)."""
