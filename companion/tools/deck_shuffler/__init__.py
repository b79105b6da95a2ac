"""Toolkit tool."""
