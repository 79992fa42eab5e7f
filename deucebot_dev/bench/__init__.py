"""`deucebot bench TARGET`: one module per target, each with `main(quick, write) -> int`."""
