"""The offline HTML player aid: page content, rules as HTML, the calculators' data, rendering."""
