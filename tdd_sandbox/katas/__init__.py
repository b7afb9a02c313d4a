"""Katas: reading `kata.md`, and importing exercises from Exercism's layouts."""
