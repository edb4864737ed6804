"""What a recipe may not do: the rules that keep a recipe a data file.

A recipe may change what it declares and nothing else. Each module here holds one layer's
rules as data (what is refused, and why) and a function that checks a recipe's input against
them, before any container starts: the JVM's options, PostgreSQL's parameters, and the
addresses of WildFly's management model that carry the lab's own traffic. The reference's
security page prints these very lists (tuninglab/site/markers.py), so the page cannot promise
what the code does not hold.
"""
