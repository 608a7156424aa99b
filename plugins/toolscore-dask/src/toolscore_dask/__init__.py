"""toolscore-dask: a toolscore executor that sends batches of cases to a Dask cluster."""
